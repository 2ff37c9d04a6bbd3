// The MV3 service worker. Chrome stops it when idle and starts it again on the next port: its
// listeners must be registered synchronously at startup, and it keeps nothing it cannot lose
// (content relays re-send a snapshot after reconnecting; the toolbar's summaries are in session
// storage).
import browser from 'webextension-polyfill'
import { PROTOCOL_VERSION } from '../protocol/events.ts'
import { answerPopup } from './popup-requests.ts'
import { createRouter } from './router.ts'
import { createTabSummaries } from './tab-summaries.ts'
import { showOnToolbar } from './toolbar-action.ts'
import { createWakeTopFrame } from './wake-top-frame.ts'

const later = (run: () => void, ms: number) => void setTimeout(run, ms)
const extensionOrigin = browser.runtime.getURL('')
const summaries = createTabSummaries({
  storage: browser.storage.session,
  show: (tabId, summary) => void showOnToolbar(browser.action, tabId, summary),
})
const wake = createWakeTopFrame({ send: (tabId, message) => browser.tabs.sendMessage(tabId, message, { frameId: 0 }), later })
const router = createRouter({ extensionOrigin, later, onBatch: summaries.record, wake })

browser.runtime.onConnect.addListener((port) => router.connect(port))
browser.runtime.onMessage.addListener((message: unknown, sender: browser.Runtime.MessageSender) =>
  answerPopup(message, sender, extensionOrigin, summaries, (tabId) => wake(tabId, { v: PROTOCOL_VERSION, kind: 'resync' })),
)
// A page with no agent never reports its load (it stays silent to cost nothing): the toolbar learns
// of a new page from the tab itself. `status` needs no permission, unlike the tab's URL.
browser.tabs.onUpdated.addListener((tabId, change) => {
  if (change.status === 'loading') summaries.restart(tabId)
})
browser.tabs.onRemoved.addListener((tabId) => {
  router.tabRemoved(tabId)
  summaries.remove(tabId)
})
