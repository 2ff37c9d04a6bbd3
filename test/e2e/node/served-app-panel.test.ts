// A Node server run as its user runs it (`node --import <the built register entry>`), serving a page
// and running an AI SDK agent loop per request, seen in the panel of its page as a user opens it in
// Chromium: the server's agent, its calls and reminders live; a config applied in the panel's editor
// changes the reminders of the next run, in the panel and in what the model received; a bridge port
// added in the panel, checked and stored.
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { RECOMMENDED_CONFIG } from '../../../engine/index.ts'
import { BRIDGE_PORTS_STORAGE_KEY } from '../../../extension/src/ui/stored-bridge-ports.ts'
import { occurrences } from '../../fixtures/wire/placements.ts'
import { GENTLE } from '../../fixtures/wire/reminders.ts'
import { type Browser, launch, wakeWorker } from '../support/browser.ts'
import { ANSWER, configShown, detailedAt, serverAgentRow, useServedApp } from './served-app.ts'

const app = useServedApp()
let browser: Browser

beforeAll(async () => {
  browser = await launch()
  await wakeWorker(browser)
}, 60_000)

afterAll(() => browser?.close())

/** The app's page in a new tab, and the panel opened for it as a tab (`extra`: more of its query). */
async function appAndPanel(extra = ''): Promise<{ page: Page; panel: Page }> {
  const page = await browser.context.newPage()
  await page.goto(`${app.origin}/`)
  const panel = await browser.openPanel(await browser.tabId(page))
  // Tall enough that the timeline draws every row of two runs: it draws only the rows in view.
  await panel.setViewportSize({ width: 1280, height: 2400 })
  if (extra !== '') await panel.goto(`${panel.url()}${extra}`)
  return { page, panel }
}

/** Clicks the page's button, as its user asks the server's agent for a run, and waits for its answer. */
async function runFromPage(page: Page): Promise<void> {
  await page.locator('#answer').evaluate((answer) => {
    answer.textContent = ''
  })
  await page.locator('#run').click()
  await expect.poll(() => page.locator('#answer').textContent(), { timeout: 20_000 }).toBe(ANSWER)
}

/** Per request of a run, in order: [gentle reminders, detailed reminders at `detailedCount`] its body held. */
const remindersSent = (bodies: readonly string[], detailedCount: number) => bodies.map((body) => [occurrences(body, GENTLE), occurrences(body, detailedAt(detailedCount))])
/** What the model is sent when reminders are due after the `gentle`th and the `detailed`th result, the history resent each step. */
const expected = (gentle: number, detailed: number) => Array.from({ length: 7 }, (_, n) => [Number(n >= gentle), Number(n >= detailed)])

const processBadge = (panel: Page) => panel.getByTestId('agent-frame').filter({ hasText: `server · pid ${app.pid} · node ` })
const reminderTexts = (panel: Page) => panel.getByTestId('reminder-text').allTextContents()

describe('the panel of a page served by a registered Node process', { timeout: 90_000 }, () => {
  it('shows the server’s agent, its calls and reminders live; a config applied in its editor changes the next run, in the panel and in what the model received', async () => {
    const { page, panel } = await appAndPanel(`&bridge=${app.bridgePort}`)
    try {
      const first = app.exchanges().length
      await runFromPage(page)
      await processBadge(panel).first().waitFor({ timeout: 15_000 })
      await serverAgentRow(panel, app.pid).click()
      await expect.poll(() => reminderTexts(panel), { timeout: 15_000 }).toEqual([GENTLE, detailedAt(5)])
      expect(await panel.getByTestId('call-tool').allTextContents()).toEqual(Array(6).fill('read_file'))
      expect(
        remindersSent(
          app
            .exchanges()
            .slice(first)
            .map((e) => e.body),
          5,
        ),
      ).toEqual(expected(3, 5))

      await panel.getByTestId('tab-config').click()
      await panel.getByTestId('config-input').fill(JSON.stringify({ thresholds: [2, 4] }))
      await panel.getByTestId('config-apply').click()
      // The process says what it runs once it applied the config: the next run starts after that.
      await expect.poll(() => configShown(panel, app.pid), { timeout: 15_000 }).toEqual(['thresholds 2, 4'])

      const second = app.exchanges().length
      await runFromPage(page)
      await panel.getByTestId('tab-timeline').click()
      await expect.poll(() => reminderTexts(panel), { timeout: 15_000 }).toEqual([GENTLE, detailedAt(5), GENTLE, detailedAt(4)])
      expect(
        remindersSent(
          app
            .exchanges()
            .slice(second)
            .map((e) => e.body),
          4,
        ),
      ).toEqual(expected(2, 4))
    } finally {
      await (await browser.worker()).evaluate((config) => chrome.storage.local.set({ config }), RECOMMENDED_CONFIG)
      await page.close()
      await panel.close()
    }
  })

  it('takes a bridge port typed in its Config tab: a bad one is refused with the reason and nothing stored; a good one is stored and attached at once', async () => {
    const { page, panel } = await appAndPanel()
    const stored = async () => (await (await browser.worker()).evaluate((key) => chrome.storage.local.get(key), BRIDGE_PORTS_STORAGE_KEY))[BRIDGE_PORTS_STORAGE_KEY]
    try {
      await panel.getByTestId('tab-config').click()
      for (const typed of ['87x0', '70000', '-1']) {
        await panel.getByTestId('bridge-port-input').fill(typed)
        await panel.getByTestId('bridge-port-add').click()
        await expect.poll(() => panel.getByTestId('bridge-port-error').textContent()).toBe(`"${typed}" is not a port: a whole number from 1 to 65535.`)
      }
      expect(await stored()).toBeUndefined()
      expect(await panel.getByTestId('bridge-port').count()).toBe(0)

      await panel.getByTestId('bridge-port-input').fill(` ${app.bridgePort} `)
      await panel.getByTestId('bridge-port-add').click()
      await expect.poll(() => panel.getByTestId('bridge-port').allTextContents()).toEqual([`${app.bridgePort} Remove`])
      expect(await panel.getByTestId('bridge-port-error').count()).toBe(0)
      expect(await stored()).toEqual([app.bridgePort])
      await panel.getByTestId('tab-timeline').click()
      await processBadge(panel).first().waitFor({ timeout: 15_000 })

      await panel.getByTestId('tab-config').click()
      await panel.getByTestId('bridge-port-input').fill(String(app.bridgePort))
      await panel.getByTestId('bridge-port-add').click()
      await expect.poll(() => panel.getByTestId('bridge-port-error').textContent()).toBe(`Port ${app.bridgePort} is already in the list.`)
      await panel.getByTestId('bridge-port-remove').click()
      await expect.poll(() => stored()).toEqual([])
      expect(await panel.getByTestId('bridge-port').count()).toBe(0)
    } finally {
      await (await browser.worker()).evaluate((key) => chrome.storage.local.remove(key), BRIDGE_PORTS_STORAGE_KEY)
      await page.close()
      await panel.close()
    }
  })
})
