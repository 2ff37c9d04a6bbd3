// The content script's port to the service worker. MV3 stops an idle worker, which closes every
// port: the relay then buffers (bounded) and reconnects with backoff, and after a reconnect asks
// the page for a fresh snapshot, because the new worker starts with empty memory.
// A tab with no agent connects only when it has something to send; once the page shows agent
// activity the relay keeps a port open so the panel never misses the state.
import type { ContentToBackground } from '../protocol/messages.ts'
import { approxSize } from '../protocol/size.ts'
import { checkBackgroundToContent } from '../protocol/validate.ts'

interface RelayPort {
  postMessage(message: ContentToBackground): void
  readonly onMessage: { addListener(listener: (message: unknown) => void): void }
  readonly onDisconnect: { addListener(listener: () => void): void }
}

interface RelayOptions {
  /** Opens a port; throws once the extension was reloaded or removed (this script is orphaned). */
  readonly connect: () => RelayPort
  /** Have the page re-send its whole state (`resync`). */
  readonly resync: () => void
  readonly now: () => number
  readonly later: (run: () => void, ms: number) => void
  /** Bounds on what waits for a port; the oldest goes first (the snapshot after reconnecting restores it). */
  readonly maxQueued?: { readonly messages: number; readonly bytes: number }
}

export interface Relay {
  send(message: ContentToBackground): void
  /** The page has an agent: from now on, reconnect as soon as the port closes. */
  keepConnected(): void
  /** False once the extension context is gone; the caller should stop listening. */
  readonly alive: boolean
  /** A port is open now. */
  readonly connected: boolean
}

/** A port that stayed open this long was healthy: the next failure starts the backoff over. */
const HEALTHY_MS = 2_000
const BACKOFF_MS = [0, 100, 250, 500, 1_000, 2_500, 5_000, 10_000]

export function createRelay(options: RelayOptions): Relay {
  const { connect, resync, now, later } = options
  const limits = options.maxQueued ?? { messages: 256, bytes: 8 * 1024 * 1024 }
  let port: RelayPort | null = null
  let everConnected = false
  let connectedAt = 0
  let failures = 0
  let retryPending = false
  let eager = false
  let alive = true
  const queue: { message: ContentToBackground; bytes: number }[] = []
  let queuedBytes = 0

  function enqueue(message: ContentToBackground): void {
    const bytes = approxSize(message)
    queue.push({ message, bytes })
    queuedBytes += bytes
    while (queue.length > limits.messages || (queuedBytes > limits.bytes && queue.length > 1)) queuedBytes -= queue.shift()!.bytes
  }

  function open(): void {
    retryPending = false
    if (!alive || port) return
    let next: RelayPort
    try {
      next = connect()
    } catch {
      alive = false
      queue.length = 0
      return
    }
    port = next
    connectedAt = now()
    next.onDisconnect.addListener(() => closed(next))
    next.onMessage.addListener((message) => {
      if (checkBackgroundToContent(message).ok) resync()
    })
    const pending = queue.splice(0)
    queuedBytes = 0
    for (const { message } of pending) deliver(message)
    if (everConnected) resync()
    everConnected = true
  }

  function closed(which: RelayPort): void {
    if (port !== which) return
    port = null
    failures = now() - connectedAt >= HEALTHY_MS ? 0 : failures + 1
    if (eager || queue.length > 0) scheduleOpen()
  }

  function scheduleOpen(): void {
    if (retryPending || !alive || port) return
    retryPending = true
    later(open, BACKOFF_MS[Math.min(failures, BACKOFF_MS.length - 1)]!)
  }

  function deliver(message: ContentToBackground): void {
    if (port) {
      try {
        port.postMessage(message)
        return
      } catch {
        // The port died before its disconnect event reached us.
        closed(port)
      }
    }
    enqueue(message)
    scheduleOpen()
  }

  return {
    send(message) {
      if (alive) deliver(message)
    },
    keepConnected() {
      eager = true
      scheduleOpen()
    },
    get alive() {
      return alive
    },
    get connected() {
      return port !== null
    },
  }
}
