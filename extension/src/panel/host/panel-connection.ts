import { PROTOCOL_VERSION } from '../../protocol/events.ts'
import { PANEL_PORT, type PanelToBackground } from '../../protocol/messages.ts'
import { checkBackgroundToPanel } from '../../protocol/validate.ts'
import type { PanelStore } from '../store/panel-store.ts'
import { reconnectDelay } from '../../ui/backoff.ts'

export interface PanelConnectionOptions {
  readonly tabId: number
  readonly store: PanelStore
  /** `chrome.runtime`, or a stand-in in tests. */
  readonly runtime?: Pick<typeof chrome.runtime, 'connect'> & { readonly lastError?: unknown }
  readonly delay?: (attempt: number) => number
}

/**
 * Keeps a port to the service worker subscribed to one tab. When the port closes (the worker was
 * stopped) it reconnects with backoff and subscribes again; the store keeps everything it has, and
 * skips the replayed history it already recorded.
 */
export function connectPanel({ tabId, store, runtime = chrome.runtime, delay = reconnectDelay }: PanelConnectionOptions): { close(): void } {
  let port: chrome.runtime.Port | undefined
  let timer: ReturnType<typeof setTimeout> | undefined
  let attempt = 0
  let subscribedBefore = false
  let closed = false

  function open(): void {
    timer = undefined
    if (closed) return
    store.setConnection(attempt === 0 ? { kind: 'connecting' } : { kind: 'reconnecting', attempt, retryInMs: 0 })
    try {
      port = runtime.connect({ name: PANEL_PORT })
    } catch {
      // The extension was reloaded under this panel, or the worker could not start: try again.
      retry()
      return
    }
    port.onMessage.addListener(receive)
    port.onDisconnect.addListener(() => {
      void runtime.lastError // read, so Chrome does not report it as unchecked
      port = undefined
      retry()
    })
    subscribe()
  }

  function subscribe(): void {
    const message: PanelToBackground = { v: PROTOCOL_VERSION, kind: 'subscribe', tabId }
    port?.postMessage(message)
  }

  // Live events were set aside while an imported session was shown: back to live, the store
  // starts empty and takes the tab's history afresh (a subscribe sends it again).
  let wasImported = store.imported
  const unsubscribe = store.subscribe(() => {
    if (wasImported && !store.imported) {
      subscribedBefore = false
      subscribe()
    }
    wasImported = store.imported
  })

  function retry(): void {
    if (closed) return
    attempt += 1
    const wait = delay(attempt)
    store.setConnection({ kind: 'reconnecting', attempt, retryInMs: wait })
    timer = setTimeout(open, wait)
  }

  function receive(message: unknown): void {
    const checked = checkBackgroundToPanel(message)
    if (!checked.ok) {
      store.countDrop(checked.reason)
      return
    }
    const value = checked.value
    if (value.tabId !== tabId) {
      store.countDrop('sender')
      return
    }
    switch (value.kind) {
      case 'history':
        // After a reconnect the history may repeat what was already recorded.
        store.ingestHistory(value.batches, value.truncated, { replayed: subscribedBefore })
        subscribedBefore = true
        attempt = 0
        store.setConnection({ kind: 'live' })
        break
      case 'batch':
        // A relay's batch sent again after its port closed: the worker before may have passed it on.
        store.ingest(value.batch, { replayed: value.replayed === true })
        break
      case 'drops':
        store.setDrops(value.drops)
        break
    }
  }

  open()
  return {
    close() {
      closed = true
      unsubscribe()
      if (timer !== undefined) clearTimeout(timer)
      port?.disconnect()
    },
  }
}
