// The origin the popup and the panel switch, in Firefox ESR: the one Firefox names for the tab's top
// frame (the port's sender); a sandboxed page's origin is opaque, and shows the observe it always
// runs, not switchable. A batch that names another address is sent from a relay world in the
// Chromium test (extension/popup-origin.test.ts): no page script can send one.
import type { Page } from 'puppeteer-core'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { ZERO_CODE_STORAGE_KEY } from '../../../extension/src/protocol/zero-code-mode.ts'
import { launchFirefox, type Firefox } from '../support/firefox.ts'
import { routeForgingPages, SANDBOXED_REASON } from '../support/forging-pages.ts'
import { serve, type TestServer } from '../support/server.ts'

let firefox: Firefox
let server: TestServer

beforeAll(async () => {
  server = await serve([])
  routeForgingPages(server)
  firefox = await launchFirefox()
})

afterAll(async () => {
  await firefox?.close()
  await server?.close()
})

/** The text of `testId` in `page` once it is there. */
async function textOf(page: Page, testId: string): Promise<string> {
  const element = await page.waitForSelector(`[data-testid="${testId}"]`, { timeout: 10_000 })
  return element!.evaluate((e) => e.textContent ?? '')
}

async function tabAt(path: string): Promise<{ page: Page; tabId: number }> {
  const page = await firefox.newPage()
  await page.goto(`${server.origin}${path}`, { waitUntil: 'domcontentloaded' })
  return { page, tabId: await firefox.tabId(page) }
}

test("the popup and the panel show and switch the page's own origin", async () => {
  const { page, tabId } = await tabAt('/forging')
  const host = new URL(server.origin).host
  const panel = await firefox.openPanel(tabId)
  // No setting stored: the local page is on its default, guard.
  await panel.evaluate((key) => chrome.storage.local.remove(key), ZERO_CODE_STORAGE_KEY)
  const popup = await firefox.openPopup(tabId)
  expect(await textOf(popup, 'zero-code')).toContain(`Zero-code: guard · ${host}`)
  expect(await textOf(panel, 'zero-code')).toContain(`Zero-code: guard · ${host}`)
  await panel.click('[data-testid="zero-code-off"]')
  // Polled from here: waitForFunction polls with a Function() an extension page's CSP refuses.
  const mode = () => panel.evaluate(() => document.querySelector('[data-testid="zero-code-mode"]')?.textContent)
  await expect.poll(mode, { interval: 100 }).toBe('off')
  expect(await panel.evaluate((key) => chrome.storage.local.get(key), ZERO_CODE_STORAGE_KEY)).toEqual({ [ZERO_CODE_STORAGE_KEY]: { [server.origin]: 'off' } })
  for (const opened of [panel, popup, page]) await opened.close()
})

test('a sandboxed page shows observe, which it always runs, with the switch disabled and the reason', async () => {
  const { page, tabId } = await tabAt('/sandboxed')
  expect(await page.evaluate(() => origin)).toBe('null')
  for (const view of [await firefox.openPopup(tabId), await firefox.openPanel(tabId)]) {
    expect(await textOf(view, 'zero-code-mode')).toBe('observe')
    expect(await textOf(view, 'zero-code-reason')).toBe(SANDBOXED_REASON)
    expect(await view.$$eval('[data-testid="zero-code"] button', (buttons) => buttons.map((b) => (b as HTMLButtonElement).disabled))).toEqual([true, true, true])
    await view.close()
  }
  await page.close()
})
