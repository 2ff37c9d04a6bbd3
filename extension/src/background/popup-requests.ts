// Answers the toolbar popup's question "what did this tab do?". Only the extension's own
// popup.html may ask (checked on the sender's URL, as for panels: the popup may also be opened as
// a tab); a content script or any other page gets no answer.
import { PROTOCOL_VERSION } from '../protocol/events.ts'
import type { BackgroundToPopup } from '../protocol/messages.ts'
import { checkPopupToBackground } from '../protocol/validate.ts'
import { splitUrl } from './router.ts'
import type { TabSummaries } from './tab-summaries.ts'

/** The reply for `message`, or undefined when it is not the popup's to answer. */
export function answerPopup(
  message: unknown,
  sender: { readonly url?: string },
  extensionOrigin: string,
  summaries: TabSummaries,
): Promise<BackgroundToPopup> | undefined {
  if (splitUrl(sender.url).page !== `${extensionOrigin}popup.html`) return undefined
  const checked = checkPopupToBackground(message)
  if (!checked.ok) return undefined
  const { tabId } = checked.value
  return summaries.get(tabId).then((summary) => ({ v: PROTOCOL_VERSION, kind: 'tab-summary', tabId, summary }))
}
