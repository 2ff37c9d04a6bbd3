// The isolated-world relay, run at document_start in every frame: page batches in (validated,
// forgeries dropped and counted), port messages out to the service worker; the stored config in
// (validated by the engine), config messages out to the page.
import browser from 'webextension-polyfill'
import type { GuardConfig } from '../../../engine/index.ts'
import { headOf } from '../../../engine/text.ts'
import { LIMITS, PROTOCOL_VERSION, type InspectorEvent } from '../protocol/events.ts'
import { CONFIG_STORAGE_KEY, CONTENT_PORT, CONTENT_SOURCE, type ContentToPage } from '../protocol/messages.ts'
import { createDropReport } from './drop-report.ts'
import { readPageMessage } from './page-inbox.ts'
import { createRelay } from './relay.ts'
import { readStoredConfig } from './stored-config.ts'
import { redactUrl } from '../protocol/redact-url.ts'
import { frameOrigin } from '../protocol/zero-code-mode.ts'
import { startZeroCodeDelivery } from './stored-zero-code-mode.ts'

const later = (run: () => void, ms: number) => void setTimeout(run, ms)
/**
 * What a page posts whether or not it has an agent (its load, its config, an empty snapshot when
 * asked to resync): bookkeeping the service worker can take whenever the port happens to be open.
 * Anything else is agent activity (or a fault) that the panel must see live.
 */
const isIdle = (event: InspectorEvent): boolean =>
  event.type === 'page-load' || event.type === 'config' || (event.type === 'snapshot' && event.agents.length === 0)
const postToPage = (message: ContentToPage) => window.postMessage(message, '*')
/** This frame's URL as the extension records it: without its secrets. */
const frameUrl = () => headOf(redactUrl(location.href), LIMITS.url)

const relay = createRelay({
  connect: () => {
    const port = browser.runtime.connect({ name: CONTENT_PORT })
    // Read it, or Chrome logs the disconnect reason in the page's console as an unchecked error.
    port.onDisconnect.addListener(() => void chrome.runtime.lastError)
    return port
  },
  resync: () => postToPage({ source: CONTENT_SOURCE, v: PROTOCOL_VERSION, kind: 'resync' }),
  now: Date.now,
  later,
})
const drops = createDropReport({ report: (counts) => relay.send({ v: PROTOCOL_VERSION, kind: 'drops', drops: counts }), later })

/** The last valid config read from storage, re-sent once the page script is known to listen. */
let storedConfig: GuardConfig | undefined
let pageListening = false

function sendConfig(config: GuardConfig): void {
  postToPage({ source: CONTENT_SOURCE, v: PROTOCOL_VERSION, kind: 'config', config })
}

function onWindowMessage(event: MessageEvent): void {
  if (!relay.alive) {
    window.removeEventListener('message', onWindowMessage)
    return
  }
  const message = readPageMessage(event.source === window, event.data)
  if (message.kind === 'ignore') return
  if (message.kind === 'drop') {
    drops.count(message.reason)
    return
  }
  if (!pageListening) {
    // The config may have been posted before the page script set up its listener.
    pageListening = true
    if (storedConfig) sendConfig(storedConfig)
    zeroCode.resend()
  }
  if (message.kind === 'drops') {
    // The page's drops of our messages go out with ours, as one count per tab.
    drops.add(message.drops)
    return
  }
  if (!message.events.every(isIdle)) relay.keepConnected()
  relay.send({ v: PROTOCOL_VERSION, kind: 'events', url: frameUrl(), events: message.events })
}

function applyStoredConfig(value: unknown, atStart: boolean): void {
  const stored = readStoredConfig(value)
  if (!stored.ok) {
    // Say it once per tab, not once per frame.
    if (window === window.top)
      relay.send({ v: PROTOCOL_VERSION, kind: 'events', url: frameUrl(), events: [{ type: 'fault', at: Date.now(), message: headOf(`stored config rejected, the page keeps its config: ${stored.error}`, LIMITS.text) }] })
    return
  }
  // Nothing stored at start: the page already runs the recommended config.
  if (atStart && value === undefined) return
  storedConfig = stored.config
  sendConfig(stored.config)
}

const zeroCode = startZeroCodeDelivery({
  storage: browser.storage,
  origin: frameOrigin(window),
  post: (mode) => postToPage({ source: CONTENT_SOURCE, v: PROTOCOL_VERSION, kind: 'zero-code', mode }),
  rejected: (reasons) => {
    // Said once per tab, like a rejected config.
    if (window === window.top) relay.send({ v: PROTOCOL_VERSION, kind: 'events', url: frameUrl(), events: [{ type: 'fault', at: Date.now(), message: headOf(`stored zero-code settings refused, their origins keep their defaults: ${reasons.join('; ')}`, LIMITS.text) }] })
  },
})
window.addEventListener('message', onWindowMessage)
browser.storage.local.get(CONFIG_STORAGE_KEY).then(
  (items) => applyStoredConfig(items[CONFIG_STORAGE_KEY], true),
  () => {
    // Storage unavailable (the extension context is gone): the page keeps the recommended config.
  },
)
browser.storage.onChanged.addListener((changes, area) => {
  if (area === 'local' && Object.hasOwn(changes, CONFIG_STORAGE_KEY)) applyStoredConfig(changes[CONFIG_STORAGE_KEY]!.newValue, false)
})
