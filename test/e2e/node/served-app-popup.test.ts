// The toolbar popup of a page served by a registered Node process counts the process's agents and
// reminders apart from the page's own, with no panel open: it attaches to the process's bridge
// itself, on the ports the user added in the panel (stored in extension storage).
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { BRIDGE_PORTS_STORAGE_KEY } from '../../../extension/src/ui/stored-bridge-ports.ts'
import { type Browser, launch, wakeWorker } from '../support/browser.ts'
import { ANSWER, useServedApp } from './served-app.ts'

const app = useServedApp()
let browser: Browser

beforeAll(async () => {
  browser = await launch()
  await wakeWorker(browser)
}, 60_000)

afterAll(() => browser?.close())

const storePorts = async (ports: number[] | undefined) =>
  (await browser.worker()).evaluate(([key, ports]) => (ports === undefined ? chrome.storage.local.remove(key as string) : chrome.storage.local.set({ [key as string]: ports })), [
    BRIDGE_PORTS_STORAGE_KEY,
    ports,
  ] as const)

/** The process as the popup names it: the app runs on this Node, its script named for it. */
const label = () => `server · pid ${app.pid} · node ${process.versions.node.split('.')[0]} · served-app.mjs`

async function runFromPage(page: Page): Promise<void> {
  await page.locator('#answer').evaluate((answer) => {
    answer.textContent = ''
  })
  await page.locator('#run').click()
  await expect.poll(() => page.locator('#answer').textContent(), { timeout: 20_000 }).toBe(ANSWER)
}

it('counts the server’s agents and reminders apart from the page’s, live, with no panel open', { timeout: 90_000 }, async () => {
  await storePorts([app.bridgePort])
  const page = await browser.context.newPage()
  await page.goto(`${app.origin}/`)
  const tabId = await browser.tabId(page)
  const popup = await browser.context.newPage()
  try {
    await runFromPage(page)
    await popup.goto(`chrome-extension://${browser.extensionId}/popup.html?tabId=${tabId}`)
    const ours = popup.getByTestId('popup-server').filter({ hasText: `server · pid ${app.pid} · node ` })
    await expect.poll(() => ours.allTextContents(), { timeout: 15_000 }).toEqual([`${label()}: 1 agent, 2 reminders fired`])
    // The page itself ran no agent: its own count says so, apart from the server's.
    expect(await popup.getByTestId('popup-agents').textContent()).toBe('No agent seen on this page yet.')
    expect(await popup.getByTestId('popup-reminders').textContent()).toBe('0 reminders fired')
    expect(await popup.getByTestId('popup-server-agents').textContent()).toMatch(/^\d+ server agents? in \d+ Node process(es)?$/)

    // Live: the popup still open, the next run's reminders are counted as they are sent.
    await runFromPage(page)
    await expect.poll(() => ours.allTextContents(), { timeout: 15_000 }).toEqual([`${label()}: 1 agent, 4 reminders fired`])
  } finally {
    await storePorts(undefined)
    await popup.close()
    await page.close()
  }
})
