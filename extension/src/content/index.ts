// The isolated-world relay, run at document_start in every frame. Until the page script has
// something to say it only listens: a page that never runs an agent costs no storage read and no
// port to the service worker. The page's first message starts the bridge; a panel opened on the
// tab asks an idle page to speak (it then reports its load).
import browser from 'webextension-polyfill'
import { PROTOCOL_VERSION } from '../protocol/events.ts'
import { CONTENT_SOURCE } from '../protocol/messages.ts'
import { checkBackgroundToContent } from '../protocol/validate.ts'
import { postToPage, startBridge, type Bridge } from './bridge.ts'
import { readPageMessage } from './page-inbox.ts'

let bridge: Bridge | undefined

function onWindowMessage(event: MessageEvent): void {
  const message = readPageMessage(event.source === window, event.data)
  if (message.kind === 'ignore') return
  bridge ??= startBridge()
  if (!bridge.alive) {
    window.removeEventListener('message', onWindowMessage)
    return
  }
  bridge.receive(message)
}

window.addEventListener('message', onWindowMessage)
// A panel subscribed to this tab. A frame with an open port got the resync over it already.
browser.runtime.onMessage.addListener((message: unknown) => {
  if (bridge?.connected || !checkBackgroundToContent(message).ok) return
  postToPage({ source: CONTENT_SOURCE, v: PROTOCOL_VERSION, kind: 'resync' })
})
