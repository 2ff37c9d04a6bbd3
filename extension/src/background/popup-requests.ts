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
  /** Asks the tab's top frame to report: a page that never ran an agent has said nothing yet. */
  wake: (tabId: number) => void,
): Promise<BackgroundToPopup> | undefined {
  if (splitUrl(sender.url).page !== `${extensionOrigin}popup.html`) return undefined
  const checked = checkPopupToBackground(message)
  if (!checked.ok) return undefined
  const { tabId } = checked.value
  return summaryWithPage(tabId, summaries, wake).then((summary) => ({ v: PROTOCOL_VERSION, kind: 'tab-summary', tabId, summary }))
}

const WAKE_POLLS = 10
const WAKE_POLL_MS = 50

/**
 * The tab's summary, with its page: a silent page (nothing reported since it loaded) is woken
 * and answers with its load, so the popup can show the origin's zero-code setting. Bounded: a
 * tab without a content script (a browser page) never answers, and the popup says so.
 */
async function summaryWithPage(tabId: number, summaries: TabSummaries, wake: (tabId: number) => void) {
  let summary = await summaries.get(tabId)
  if (summary.pageOrigin !== null) return summary
  wake(tabId)
  for (let i = 0; i < WAKE_POLLS && summary.pageOrigin === null; i++) {
    await new Promise((waited) => setTimeout(waited, WAKE_POLL_MS))
    summary = await summaries.get(tabId)
  }
  return summary
}
