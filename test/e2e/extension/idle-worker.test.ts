// Chrome stops an idle service worker. A tab whose page has no agent must leave it stopped (its
// page load and config are no reason to wake it); a tab with an agent brings it back at once.
import type { CDPSession, Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import { useStage } from '../support/stage.ts'
import { FIXTURES_DIR, runAgent } from './fixture.ts'
import { tapPanelPort } from './panel-tap.ts'

const stage = useStage({ folder: FIXTURES_DIR })
let page: Page
let cdp: CDPSession
let tabId: number

/** The target ids of the extension's running service workers, as Chrome lists them. */
async function runningWorkers(): Promise<string[]> {
  const { targetInfos } = await cdp.send('Target.getTargets')
  return targetInfos.filter((t) => t.type === 'service_worker' && t.url.includes(stage.browser.extensionId!)).map((t) => t.targetId)
}

/**
 * Until the page has done all it does after its load: the relay's own work is queued for an idle
 * moment then, and idle callbacks run in the order they were asked for.
 */
const pageSettled = () => page.evaluate(() => new Promise((done) => requestIdleCallback(() => done(true), { timeout: 2_000 })))

beforeAll(async () => {
  page = await stage.browser.context.newPage()
  // Asked of the worker now: after a restart Playwright no longer holds it.
  tabId = await stage.browser.tabId(page)
  cdp = await stage.browser.context.newCDPSession(page)
})

describe('the service worker after Chrome stops it', () => {
  it('stays stopped while the only page has no agent', async () => {
    // The fixture page drives no agent until told to: it posts nothing, and its relay opens no port.
    await page.goto(`${stage.server.origin}/agent.html?idle`)
    await pageSettled()
    // Stopped with this tab open: the stop itself wakes nothing.
    await stage.browser.stopServiceWorker()
    expect(await runningWorkers()).toEqual([])
    // Whatever the page might still do on its own it has done by its next idle moment.
    await pageSettled()
    expect(await runningWorkers()).toEqual([])
  })

  it('is brought back at once by a page with an agent, which sends it the page state', async () => {
    await page.goto(`${stage.server.origin}/agent.html?idle`)
    await runAgent(page, 'alpha', [['read_file', { path: 'a.txt' }]])
    await expect.poll(runningWorkers).toHaveLength(1)
    // The port must live long enough to count as healthy (two seconds): the relay then retries
    // without delay. Time that has to pass, not a wait for something to happen.
    await new Promise((done) => setTimeout(done, 2_500))
    // Stopped with only this tab open: nothing but its relay can bring the worker back.
    await stage.browser.stopServiceWorker()
    await expect.poll(runningWorkers).toHaveLength(1)
    const panelPage = await stage.browser.context.newPage()
    await panelPage.goto(`chrome-extension://${stage.browser.extensionId}/panel.html?tabId=-1`)
    const tap = await tapPanelPort(panelPage, tabId)
    await expect.poll(async () => (await tap.messages()).length).toBeGreaterThan(0)
    // A fresh worker, started by the relay before any panel came: it holds just the snapshot the
    // page sent after the reconnect (the old worker would still hold the page load first).
    const [history] = await tap.messages()
    expect(history).toMatchObject({ kind: 'history', tabId, truncated: false })
    const [first] = await tap.events()
    expect(first).toMatchObject({ type: 'snapshot', agents: [expect.objectContaining({ label: 'alpha', tool: 'read_file', count: 1 })] })
  })
})
