import browser from 'webextension-polyfill'
import { PROTOCOL_VERSION } from '../protocol/events.ts'
import type { PopupToBackground, TabSummary } from '../protocol/messages.ts'
import { checkBackgroundToPopup } from '../protocol/validate.ts'

/** Asks the service worker what it saw in `tabId`; rejects with the reason when the reply is not valid. */
export async function requestTabSummary(tabId: number): Promise<TabSummary> {
  const request: PopupToBackground = { v: PROTOCOL_VERSION, kind: 'tab-summary', tabId }
  const reply: unknown = await browser.runtime.sendMessage(request)
  const checked = checkBackgroundToPopup(reply)
  if (!checked.ok) throw new Error(`the service worker's reply was refused: ${checked.detail}`)
  if (checked.value.tabId !== tabId) throw new Error(`the service worker answered for tab ${checked.value.tabId}, not ${tabId}`)
  return checked.value.summary
}
