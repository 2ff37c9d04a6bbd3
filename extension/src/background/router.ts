// The service worker's router: content ports in, panel ports out, keyed by the tab Chrome names
// as the port's sender (never by anything a message says), so one tab's events cannot reach
// another tab's panel. It acts on nothing a page asks: it only buffers, forwards and counts.
// Free of extension APIs so it runs under test with plain objects for ports.
import { PROTOCOL_VERSION } from '../protocol/events.ts'
import {
  CONTENT_PORT,
  PANEL_PORT,
  type BackgroundToContent,
  type BackgroundToPanel,
  type BackgroundToRelay,
  type DropCounts,
  type DropReason,
  type RelaySequence,
  type TabBatch,
} from '../protocol/messages.ts'
import { approxSize } from '../protocol/size.ts'
import { checkContentToBackground, checkPanelToBackground } from '../protocol/validate.ts'
import { createAcks } from './acks.ts'
import { senderOrigin, type OriginSender } from './sender-origin.ts'
import { createStreamMarks, type StreamMarks } from './stream-marks.ts'
import { createTabBuffer, type TabBuffer, type TabBufferLimits } from './tab-buffer.ts'
import { createTabRate, type TabRate, type TabRateLimits } from './tab-rate.ts'

export interface RouterPort {
  readonly name: string
  readonly sender?: OriginSender & { readonly tab?: { readonly id?: number }; readonly frameId?: number }
  postMessage(message: unknown): void
  disconnect(): void
  readonly onMessage: { addListener(listener: (message: unknown) => void): void }
  readonly onDisconnect: { addListener(listener: () => void): void }
}

interface RouterOptions {
  /** `chrome-extension://<id>/`: panel ports must come from the extension's own `panel.html`. */
  readonly extensionOrigin: string
  readonly later: (run: () => void, ms: number) => void
  /** Milliseconds, for the tabs' rate limits. */
  readonly now?: () => number
  readonly bufferLimits?: TabBufferLimits
  readonly rateLimits?: TabRateLimits
  /** Drop totals go to panels at most this often. */
  readonly dropsIntervalMs?: number
  /**
   * Asks the tab's top frame to report (`message` sent outside the content ports): a page that never
   * had anything to say holds no port, and reports its load only when asked.
   */
  readonly wake?: (tabId: number, message: BackgroundToContent) => void
  /**
   * Told of every batch a tab's content admitted (the toolbar action's summary), with its place in
   * its relay's stream; the batch is acknowledged to the relay once the promise returned settles.
   */
  readonly onBatch?: (tabId: number, batch: TabBatch, from: RelaySequence) => Promise<unknown> | undefined
}

export interface Router {
  connect(port: RouterPort): void
  tabRemoved(tabId: number): void
}

interface TabRecord {
  readonly buffer: TabBuffer
  readonly rate: TabRate
  readonly drops: Partial<Record<DropReason, number>>
  readonly contents: Set<RouterPort>
  readonly panels: Set<RouterPort>
  /** The relays' messages this worker handled: one sent again is not handled twice. */
  readonly streams: StreamMarks
  dropsPending: boolean
}

const isTabId = (id: unknown): id is number => typeof id === 'number' && Number.isSafeInteger(id) && id >= 0

/**
 * `url` as its page and its query, fragment left out. String work rather than `new URL`: outside
 * Chrome a `chrome-extension:` URL has no origin.
 */
export function splitUrl(url = ''): { readonly page: string; readonly query: URLSearchParams } {
  const [withoutFragment = ''] = url.split('#', 1)
  const at = withoutFragment.indexOf('?')
  if (at < 0) return { page: withoutFragment, query: new URLSearchParams() }
  return { page: withoutFragment.slice(0, at), query: new URLSearchParams(withoutFragment.slice(at + 1)) }
}

/** The `?tabId=N` a panel names in its own URL (the panel opened as a tab, or by DevTools). */
function tabIdInUrl(url: string | undefined): number | undefined {
  const param = splitUrl(url).query.get('tabId')
  if (param === null || !/^\d+$/.test(param)) return undefined
  const id = Number(param)
  return isTabId(id) ? id : undefined
}

/** Adds without passing the largest safe integer: the validators refuse anything above it. */
const addCount = (a: number, b: number): number => Math.min(a + b, Number.MAX_SAFE_INTEGER)

function post(port: RouterPort, message: BackgroundToPanel | BackgroundToRelay): void {
  try {
    port.postMessage(message)
  } catch {
    // The other end is gone; its disconnect event cleans up.
  }
}

export function createRouter(options: RouterOptions): Router {
  const { extensionOrigin, later, now = Date.now, bufferLimits, rateLimits, dropsIntervalMs = 100, wake, onBatch } = options
  const panelPage = `${extensionOrigin}panel.html`
  const tabs = new Map<number, TabRecord>()

  function tab(tabId: number): TabRecord {
    let record = tabs.get(tabId)
    if (!record) {
      record = {
        buffer: createTabBuffer(bufferLimits),
        rate: createTabRate(rateLimits),
        drops: {},
        contents: new Set(),
        panels: new Set(),
        streams: createStreamMarks(),
        dropsPending: false,
      }
      tabs.set(tabId, record)
    }
    return record
  }

  /** Forget a tab nobody talks about any more and that has nothing to show. */
  function release(tabId: number): void {
    const record = tabs.get(tabId)
    if (record && record.contents.size === 0 && record.panels.size === 0 && record.buffer.empty && Object.keys(record.drops).length === 0) tabs.delete(tabId)
  }

  function countDrops(tabId: number, record: TabRecord, drops: DropCounts): void {
    // The page can report counts of its own (through the relay): keep the sum a valid count.
    for (const [reason, n] of Object.entries(drops) as [DropReason, number | undefined][]) if (n) record.drops[reason] = addCount(record.drops[reason] ?? 0, n)
    if (record.dropsPending) return
    record.dropsPending = true
    later(() => {
      record.dropsPending = false
      for (const panel of record.panels) post(panel, { v: PROTOCOL_VERSION, kind: 'drops', tabId, drops: { ...record.drops } })
    }, dropsIntervalMs)
  }

  function connectContent(port: RouterPort, tabId: number): void {
    const frameId = port.sender?.frameId ?? 0
    // Every batch is tagged with it: the popup and the panel switch this origin, whatever the
    // page's own page-load event names.
    const origin = senderOrigin(port.sender)
    const acks = createAcks((seq) => post(port, { v: PROTOCOL_VERSION, kind: 'ack', seq }), later)
    tab(tabId).contents.add(port)
    port.onMessage.addListener((message) => {
      // Absent only when the tab was closed meanwhile: nothing of it is kept.
      const record = tabs.get(tabId)
      if (!record) return
      const checked = checkContentToBackground(message)
      if (!checked.ok) return countDrops(tabId, record, { [checked.reason]: 1 })
      const received = checked.value
      const { stream, seq, resent } = received
      // Handled before this port closed; its acknowledgement was lost with the port.
      if (!record.streams.advance(stream, seq)) return acks.handled(seq)
      if (received.kind === 'drops') {
        countDrops(tabId, record, received.drops)
        return acks.handled(seq)
      }
      const batch: TabBatch = { frameId, url: received.url, origin, events: received.events }
      const bytes = approxSize(batch)
      if (!record.rate.admit(batch.events.length, bytes, now())) {
        countDrops(tabId, record, { rate: 1 })
        return acks.handled(seq)
      }
      record.buffer.append(batch, bytes)
      const stored = onBatch?.(tabId, batch, received)
      // A batch sent again may have reached a panel through the worker before this one.
      const forwarded: BackgroundToPanel = { v: PROTOCOL_VERSION, kind: 'batch', tabId, batch, ...(resent ? { replayed: true } : {}) }
      for (const panel of record.panels) post(panel, forwarded)
      acks.handled(seq, stored ?? undefined)
    })
    port.onDisconnect.addListener(() => {
      tabs.get(tabId)?.contents.delete(port)
      release(tabId)
    })
  }

  function connectPanel(port: RouterPort): void {
    let subscribed: number | undefined
    const leave = () => {
      if (subscribed === undefined) return
      tabs.get(subscribed)?.panels.delete(port)
      release(subscribed)
      subscribed = undefined
    }
    port.onMessage.addListener((message) => {
      const checked = checkPanelToBackground(message)
      if (!checked.ok) {
        // Counted for the tab the panel watches (or names in its URL before subscribing), so the
        // panel shows it like any other drop; with no tab known there is no panel to show it.
        const tabId = subscribed ?? tabIdInUrl(port.sender?.url)
        if (tabId !== undefined) countDrops(tabId, tab(tabId), { [checked.reason]: 1 })
        return
      }
      leave()
      const { tabId } = checked.value
      subscribed = tabId
      const record = tab(tabId)
      record.panels.add(port)
      post(port, { v: PROTOCOL_VERSION, kind: 'history', tabId, batches: record.buffer.batches(), truncated: record.buffer.truncated })
      if (Object.keys(record.drops).length > 0) post(port, { v: PROTOCOL_VERSION, kind: 'drops', tabId, drops: { ...record.drops } })
      // History without its beginning (or none after a restart): have the pages send their state.
      if (record.buffer.truncated || record.buffer.empty) {
        const resync: BackgroundToContent = { v: PROTOCOL_VERSION, kind: 'resync' }
        for (const content of record.contents) post(content, resync)
        wake?.(tabId, resync)
      }
    })
    port.onDisconnect.addListener(leave)
  }

  return {
    connect(port) {
      const tabId = port.sender?.tab?.id
      // Only the panel page itself, in DevTools or opened as a tab (any query): not the devtools
      // page, not any other extension page, never a content script.
      const fromPanelPage = splitUrl(port.sender?.url).page === panelPage
      if (port.name === CONTENT_PORT && isTabId(tabId)) return connectContent(port, tabId)
      if (port.name === PANEL_PORT && fromPanelPage) return connectPanel(port)
      // A port from the wrong kind of sender (a content script or another page naming itself a
      // panel, a content port outside any tab) or with an unknown name: refuse it, and count it
      // where a tab is known.
      if (isTabId(tabId)) countDrops(tabId, tab(tabId), { sender: 1 })
      port.disconnect()
    },
    tabRemoved(tabId) {
      tabs.delete(tabId)
    },
  }
}
