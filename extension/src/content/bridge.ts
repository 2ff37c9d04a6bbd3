// What the relay starts once the page script has something to say: the port to the service worker
// (page batches out, resync requests back), the drop report, and the stored settings delivered to
// the page script over their private channel (page-channel.ts).
import browser from 'webextension-polyfill'
import { headOf } from '../../../engine/safe-reading.ts'
import { LIMITS, PROTOCOL_VERSION, type PanelEvent } from '../protocol/events.ts'
import { CONTENT_PORT, CONTENT_SOURCE, type ContentToPage } from '../protocol/messages.ts'
import { redactUrl } from '../protocol/redact-url.ts'
import { createDropReport } from '../protocol/drop-counts.ts'
import { readPageMessage } from './page-inbox.ts'
import { createRelay } from './relay.ts'
import { deliverStoredSettings } from './stored-settings.ts'

export interface Bridge {
  /** A message of the page script, from the private channel (not yet checked). */
  receive(data: unknown): void
  /** False once the extension context is gone; the caller should stop listening. */
  readonly alive: boolean
  /** A port to the service worker is open: a resync reaches the page through it. */
  readonly connected: boolean
}

const later = (run: () => void, ms: number) => void setTimeout(run, ms)
/**
 * What a page posts whether or not it has an agent (its load, its config, an empty snapshot when
 * asked to resync): bookkeeping the service worker can take whenever the port happens to be open.
 * Anything else is agent activity (or a fault) that the panel must see live.
 */
const isIdle = (event: PanelEvent): boolean => event.type === 'page-load' || event.type === 'config' || (event.type === 'snapshot' && event.agents.length === 0)

export function startBridge(postToPage: (message: ContentToPage) => void): Bridge {
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
  const sendEvents = (events: readonly PanelEvent[]) =>
    // This frame's URL as the extension records it: without its secrets.
    relay.send({ v: PROTOCOL_VERSION, kind: 'events', url: headOf(redactUrl(location.href), LIMITS.url), events })

  deliverStoredSettings({
    config: (config) => postToPage({ source: CONTENT_SOURCE, v: PROTOCOL_VERSION, kind: 'config', config }),
    zeroCode: (mode) => postToPage({ source: CONTENT_SOURCE, v: PROTOCOL_VERSION, kind: 'zero-code', mode }),
    refused: (message) => {
      // Said once per tab, not once per frame.
      if (window === window.top) sendEvents([{ type: 'fault', at: Date.now(), message: headOf(message, LIMITS.text) }])
    },
  })

  return {
    receive(data) {
      const message = readPageMessage(data)
      if (message.kind === 'drop') return drops.count(message.reason)
      // The page's drops of our messages go out with ours, as one count per tab.
      if (message.kind === 'drops') return drops.add(message.drops)
      if (!message.events.every(isIdle)) relay.keepConnected()
      sendEvents(message.events)
    },
    get alive() {
      return relay.alive
    },
    get connected() {
      return relay.connected
    },
  }
}
