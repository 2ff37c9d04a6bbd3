// A page that never runs an agent costs the extension's service worker nothing: no frame opens a
// port. The page API is there before the page's first script all the same, and the first call
// starts everything: the panel then shows the page's load, as it happened, the agent and its
// reminders.
import type { Page, Worker } from 'playwright-core'
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { CONTENT_PORT } from '../../../extension/src/protocol/messages.ts'
import { routeHtml } from '../support/server.ts'
import { useStage } from '../support/stage.ts'
import { FIXTURES_DIR, GENTLE_REMINDER, repeat, runAgent, type AgentWindow } from './fixture.ts'
import { tapPanelPort } from './panel-tap.ts'

const FRAMES = 5

const stage = useStage({
  folder: FIXTURES_DIR,
  // The fixture agent page in frames: each frame is an idle page until told to run an agent.
  routes: (server) => routeHtml(server, '/frames.html', `<!doctype html><title>frames</title>${Array.from({ length: FRAMES }, (_, i) => `<iframe src="agent.html?frame=${i}"></iframe>`).join('')}`),
})
let worker: Worker
let page: Page

type PortLog = { __contentPorts?: { frameId: number | undefined; url: string | undefined }[] }
/** The content ports the service worker accepted since the test began, by frame. */
const contentPorts = () => worker.evaluate(() => (self as unknown as PortLog).__contentPorts!.map((p) => p.frameId))
/** The addresses of the frames that opened them. */
const contentPortUrls = () => worker.evaluate(() => (self as unknown as PortLog).__contentPorts!.map((p) => p.url))

beforeAll(async () => {
  worker = await stage.browser.worker()
  await worker.evaluate((name) => {
    const log: PortLog['__contentPorts'] = []
    ;(self as unknown as PortLog).__contentPorts = log
    chrome.runtime.onConnect.addListener((port) => {
      if (port.name === name) log.push({ frameId: port.sender?.frameId, url: port.sender?.url })
    })
  }, CONTENT_PORT)
})

// Every test in a tab of its own, counting the ports opened from its start.
beforeEach(async () => {
  await worker.evaluate(() => void ((self as unknown as PortLog).__contentPorts!.length = 0))
  page = await stage.browser.context.newPage()
})

afterEach(() => page.close())

describe('a page that never runs an agent', () => {
  it('has the page API before its first script in every frame, and opens no port from any of them', async () => {
    await page.goto(`${stage.server.origin}/frames.html`)
    const frames = page.frames().filter((f) => f.url().includes('agent.html'))
    expect(frames).toHaveLength(FRAMES)
    for (const frame of frames) expect(await frame.evaluate(() => (window as unknown as AgentWindow).firstScriptSaw)).toEqual({ type: 'object', version: 1 })
    // Each frame's work after its load is done (the relay queues its own for an idle moment, and
    // idle callbacks run in the order they were asked for)...
    for (const frame of frames) await frame.evaluate(() => new Promise((done) => requestIdleCallback(() => done(true), { timeout: 2_000 })))
    // ...then the last frame runs an agent: its relay connects at once. A port any frame opened on
    // its own was opened before, so the worker has it by the time it has this one.
    const last = frames.at(-1)!
    await runAgent(last, 'late', [['read_file', { path: 'a.txt' }]])
    await expect.poll(contentPortUrls).toContainEqual(last.url())
    expect(await contentPortUrls()).toEqual([last.url()])
  })

  it('starts on its first call: the panel gets the load as it happened (where, whatever pushState did since, and when), the agent and its reminder', async () => {
    const loadedBefore = Date.now()
    await page.goto(`${stage.server.origin}/agent.html?lazy`)
    const loadedAfter = Date.now()
    expect(await contentPorts()).toEqual([])
    const tabId = await stage.browser.tabId(page)
    // A same-document navigation before the first call: the load is still reported where it happened.
    await page.evaluate(() => history.pushState(null, '', 'moved.html?elsewhere#there'))
    const calledAt = Date.now()
    expect(await runAgent(page, 'lazy', repeat(3, ['read_file', { path: 'a.txt' }]))).toEqual([[], [], [GENTLE_REMINDER]])
    await expect.poll(contentPorts).toEqual([0])

    const extensionPage = await stage.browser.openPanel(-1)
    const tap = await tapPanelPort(extensionPage, tabId)
    await expect.poll(async () => (await tap.events()).map((e) => e.type)).toEqual(['page-load', 'config', 'agent', 'call', 'call', 'call', 'reminder'])
    const [load] = await tap.events()
    expect(load).toMatchObject({ type: 'page-load', url: `${stage.server.origin}/agent.html?lazy` })
    expect(load!.at).toBeGreaterThanOrEqual(loadedBefore)
    expect(load!.at).toBeLessThanOrEqual(Math.min(loadedAfter, calledAt))

    const panel = await stage.browser.openPanel(tabId)
    await expect.poll(() => panel.locator('[data-testid=timeline-row][data-kind=page-load]').count()).toBe(1)
    await expect.poll(() => panel.getByTestId('agent-label').allTextContents()).toEqual(['lazy'])
    await expect.poll(() => panel.getByTestId('reminder-text').allTextContents()).toEqual([GENTLE_REMINDER])
  })
})
