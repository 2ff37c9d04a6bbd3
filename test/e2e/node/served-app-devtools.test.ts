// The panel where users use it, inside the DevTools window Chromium opens for a tab, for a page served
// by a registered Node process whose bridge is not on the default port: the panel there has no
// address to name the port on, so the user adds it in the panel's Config tab, and the panel attaches
// at once and shows the server's agent, its calls and reminders live.
import type { Frame, Page } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { BRIDGE_PORTS_STORAGE_KEY } from '../../../extension/src/ui/stored-bridge-ports.ts'
import { GENTLE } from '../../fixtures/wire/reminders.ts'
import { type Browser, launch } from '../support/browser.ts'
import { devToolsFor } from '../support/devtools.ts'
import { ANSWER, detailedAt, serverAgentRow, useServedApp } from './served-app.ts'

const app = useServedApp()
let browser: Browser

beforeAll(async () => {
  browser = await launch({ devtools: true })
}, 60_000)

afterAll(() => browser?.close())

async function runFromPage(page: Page): Promise<void> {
  await page.locator('#run').click()
  await expect.poll(() => page.locator('#answer').textContent(), { timeout: 20_000 }).toBe(ANSWER)
}

const texts = (frame: Frame, testId: string) => frame.locator(`[data-testid=${testId}]`).allTextContents()

it('shows the server’s agent, its calls and reminders live once the user adds its bridge port in the panel', { timeout: 90_000 }, async () => {
  const page = await browser.context.newPage()
  await page.goto(`${app.origin}/`)
  const devtools = await devToolsFor(browser.debuggingEndpoint!, page.url())
  try {
    // Tall enough that the panel's timeline draws every row of two runs (it draws only the rows in
    // view); set before the panel shows, so that DevTools has laid it out at this size.
    await devtools.page.setViewportSize({ width: 1280, height: 2400 })
    await devtools.showPanel(`chrome-extension://${browser.extensionId}RepeatToolGuard`)
    const panel = await devtools.panelFrame('/panel.html')
    // In DevTools the panel is a frame of another process: its controls are worked by their own
    // events (click, keys), not by a pointer aimed at where DevTools draws them.
    await panel.locator('[data-testid=tab-config]').dispatchEvent('click')
    await panel.locator('[data-testid=bridge-port-input]').fill(String(app.bridgePort))
    await panel.locator('[data-testid=bridge-port-input]').press('Enter')
    await expect.poll(() => texts(panel, 'bridge-port')).toEqual([`${app.bridgePort} Remove`])
    await panel.locator('[data-testid=tab-timeline]').dispatchEvent('click')

    await runFromPage(page)
    const badge = panel.locator('[data-testid=agent-frame]').filter({ hasText: `server · pid ${app.pid} · node ` })
    await badge.first().waitFor({ timeout: 15_000 })
    await serverAgentRow(panel, app.pid).dispatchEvent('click')
    await expect.poll(() => texts(panel, 'reminder-text'), { timeout: 15_000 }).toEqual([GENTLE, detailedAt(5)])
    expect(await texts(panel, 'call-tool')).toEqual(Array(6).fill('read_file'))
    // Live: the next run's calls and reminders arrive without the panel being opened again.
    await runFromPage(page)
    await expect.poll(() => texts(panel, 'reminder-text'), { timeout: 15_000 }).toEqual([GENTLE, detailedAt(5), GENTLE, detailedAt(5)])
  } finally {
    await (await browser.worker()).evaluate((key) => chrome.storage.local.remove(key), BRIDGE_PORTS_STORAGE_KEY)
    await devtools.disconnect()
    await page.close()
  }
})
