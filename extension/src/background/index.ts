// The MV3 service worker. Chrome stops it when idle and starts it again on the next port: its
// listeners must be registered synchronously at startup, and it keeps nothing it cannot lose
// (content relays re-send a snapshot after reconnecting; the toolbar's summaries are in session
// storage).
import browser from 'webextension-polyfill'
import { answerPopup } from './popup-requests.ts'
import { createRouter } from './router.ts'
import { createTabSummaries } from './tab-summaries.ts'
import { showOnToolbar } from './toolbar-action.ts'

const later = (run: () => void, ms: number) => void setTimeout(run, ms)
const extensionOrigin = browser.runtime.getURL('')
const summaries = createTabSummaries({
  storage: browser.storage.session,
  show: (tabId, summary) => void showOnToolbar(browser.action, tabId, summary),
})
const router = createRouter({
  extensionOrigin,
  later,
  onBatch: summaries.record,
  // A tab without a content script (a browser page, a store page) has no receiver: nothing to wake.
  wake: (tabId, message) => void browser.tabs.sendMessage(tabId, message, { frameId: 0 }).catch(() => {}),
})

browser.runtime.onConnect.addListener((port) => router.connect(port))
browser.runtime.onMessage.addListener((message: unknown, sender: browser.Runtime.MessageSender) => answerPopup(message, sender, extensionOrigin, summaries))
browser.tabs.onRemoved.addListener((tabId) => {
  router.tabRemoved(tabId)
  summaries.remove(tabId)
})
