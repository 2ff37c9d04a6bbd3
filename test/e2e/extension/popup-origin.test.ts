// The origin the toolbar popup and the panel switch, in Chromium: the one the browser names for the
// tab's top frame, whatever address the page writes in its own events; a sandboxed page (an opaque
// origin) shows the observe it always runs, and cannot be switched. The popup lays out its whole
// switch at its natural width and at a narrow one.
import type { Page } from 'playwright-core'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { ZERO_CODE_STORAGE_KEY } from '../../../extension/src/protocol/zero-code-mode.ts'
import { forgePageLoad, routeForgingPages, SANDBOXED_REASON } from '../support/forging-pages.ts'
import { wakeWorker } from '../support/browser.ts'
import { useStage } from '../support/stage.ts'

const stage = useStage({ routes: routeForgingPages })

beforeAll(async () => {
  await wakeWorker(stage.browser)
})

const storedOrigins = async (): Promise<unknown> => (await (await stage.browser.worker()).evaluate((key) => chrome.storage.local.get(key), ZERO_CODE_STORAGE_KEY))[ZERO_CODE_STORAGE_KEY]

afterEach(async () => {
  await (await stage.browser.worker()).evaluate((key) => chrome.storage.local.remove(key), ZERO_CODE_STORAGE_KEY)
})

/** The popup of `tabId`, opened as a page, once it shows the zero-code switch. */
async function popupOf(tabId: number): Promise<Page> {
  const popup = await stage.browser.context.newPage()
  await popup.goto(`chrome-extension://${stage.browser.extensionId}/popup.html?tabId=${tabId}`)
  await expect.poll(() => popup.getByTestId('zero-code').count()).toBe(1)
  return popup
}

describe('the origin the popup and the panel switch', () => {
  it("is the page's own, whatever address its tab's batches and page-load event name", async () => {
    const { page, tabId } = await stage.open('forging')
    const host = new URL(stage.server.origin).host
    await forgePageLoad(stage.browser, page)
    const popup = await popupOf(tabId)
    expect(await popup.getByTestId('zero-code').textContent()).toContain(`Zero-code: guard · ${host}`)
    expect(await popup.content()).not.toContain('bank.example')
    await popup.getByTestId('zero-code-observe').click()
    await expect.poll(() => popup.getByTestId('zero-code-mode').textContent()).toBe('observe')
    expect(await storedOrigins()).toEqual({ [stage.server.origin]: 'observe' })

    const panel = await stage.browser.openPanel(tabId)
    await expect.poll(() => panel.getByTestId('zero-code').textContent()).toContain(`Zero-code: observe · ${host}`)
    // The address shown is the one the relay reports for its frame; the origin switched is the browser's.
    expect(await panel.getByTestId('zero-code').textContent()).not.toContain('bank.example')
    await panel.getByTestId('zero-code-off').click()
    await expect.poll(() => storedOrigins()).toEqual({ [stage.server.origin]: 'off' })
    for (const opened of [panel, popup, page]) await opened.close()
  })

  it('of a sandboxed page is opaque: it shows observe, which the page always runs, and cannot be switched', async () => {
    // A stored setting for the host does not reach the sandboxed page's opaque origin.
    await (await stage.browser.worker()).evaluate(([key, origin]) => chrome.storage.local.set({ [key]: { [origin]: 'guard' } }), [ZERO_CODE_STORAGE_KEY, stage.server.origin] as const)
    const { page, tabId } = await stage.open('sandboxed')
    expect(await page.evaluate(() => origin)).toBe('null')
    const popup = await popupOf(tabId)
    const panel = await stage.browser.openPanel(tabId)
    await expect.poll(() => panel.getByTestId('zero-code').count()).toBe(1)
    for (const view of [popup, panel]) {
      expect(await view.getByTestId('zero-code-mode').textContent()).toBe('observe')
      expect(await view.getByTestId('zero-code-reason').textContent()).toBe(SANDBOXED_REASON)
      for (const mode of ['guard', 'observe', 'off']) expect(await view.getByTestId(`zero-code-${mode}`).isDisabled()).toBe(true)
    }
    expect(await storedOrigins()).toEqual({ [stage.server.origin]: 'guard' })
    for (const opened of [panel, popup, page]) await opened.close()
  })
})

/** Where each of the switch's buttons lies against the document's visible box, and whether anything overflows it. */
const layoutOf = (popup: Page) =>
  popup.evaluate(() => {
    const root = document.documentElement
    const buttons = [...document.querySelectorAll<HTMLElement>('[data-testid="zero-code"] button')].map((button) => {
      const box = button.getBoundingClientRect()
      const group = button.parentElement!.getBoundingClientRect()
      const inside = (outer: { left: number; right: number; top: number; bottom: number }) =>
        box.left >= outer.left && box.right <= outer.right + 0.5 && box.top >= outer.top && box.bottom <= outer.bottom + 0.5
      return { text: button.textContent, inView: inside({ left: 0, top: 0, right: root.clientWidth, bottom: root.clientHeight }), inGroup: inside(group) }
    })
    return { buttons, overflows: root.scrollWidth > root.clientWidth }
  })

describe('the popup', () => {
  it('shows its whole switch at its natural width and at a narrow one', async () => {
    const { page, tabId } = await stage.open('forging')
    const popup = await popupOf(tabId)
    // Chrome sizes a popup to its content, 25 to 800 px wide and at most 600 px high: laid out at
    // the widest, the body's width is the popup's.
    await popup.setViewportSize({ width: 800, height: 600 })
    const natural = await popup.evaluate(() => Math.ceil(document.body.getBoundingClientRect().width))
    expect(natural).toBeGreaterThanOrEqual(25)
    expect(natural).toBeLessThanOrEqual(800)
    const whole = { buttons: ['guard', 'observe', 'off'].map((text) => ({ text, inView: true, inGroup: true })), overflows: false }
    for (const width of [natural, 180]) {
      await popup.setViewportSize({ width, height: 600 })
      expect({ width, ...(await layoutOf(popup)) }).toEqual({ width, ...whole })
    }
    for (const opened of [popup, page]) await opened.close()
  })
})
