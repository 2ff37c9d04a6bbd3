// The MV3 service worker. Chrome stops it when idle and starts it again on the next port: its
// listeners must be registered synchronously at startup, and it keeps nothing it cannot lose
// (content relays re-send a snapshot after reconnecting).
import browser from 'webextension-polyfill'
import { createRouter } from './router.ts'

const router = createRouter({
  extensionOrigin: browser.runtime.getURL(''),
  later: (run, ms) => void setTimeout(run, ms),
  // A tab without a content script (a browser page, a store page) has no receiver: nothing to wake.
  wake: (tabId, message) => void browser.tabs.sendMessage(tabId, message, { frameId: 0 }).catch(() => {}),
})

browser.runtime.onConnect.addListener((port) => router.connect(port))
browser.tabs.onRemoved.addListener((tabId) => router.tabRemoved(tabId))
