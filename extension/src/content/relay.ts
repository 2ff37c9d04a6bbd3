// The content script's port to the service worker. MV3 stops an idle worker, which closes every
// port: the relay then holds what it sends (bounded) and reconnects with backoff, sends again
// whatever the worker did not acknowledge (outbox.ts), and after a reconnect asks the page for a
// fresh snapshot, because the new worker starts with empty memory.
// A tab with no agent connects only when it has something to send; once the page shows agent
// activity the relay keeps a port open so the panel never misses the state.
import type { ContentReport, ContentToBackground } from '../protocol/messages.ts'
import { checkBackgroundToRelay } from '../protocol/validate.ts'
import { createOutbox } from './outbox.ts'

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
  /**
   * Bounds on what waits for a port or for the worker's acknowledgement; the oldest goes first (the
   * snapshot after reconnecting restores the state, not the rows in between).
   */
  readonly maxQueued?: { readonly messages: number; readonly bytes: number }
  /** The name the relay's messages carry (`RelaySequence`); random unless given. */
  readonly stream?: string
}

export interface Relay {
  send(report: ContentReport): void
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
  const outbox = createOutbox(options.maxQueued ?? { messages: 256, bytes: 8 * 1024 * 1024 }, options.stream)
  let port: RelayPort | null = null
  let everConnected = false
  let connectedAt = 0
  let failures = 0
  let retryPending = false
  let eager = false
  let alive = true

  function open(): void {
    retryPending = false
    if (!alive || port) return
    let next: RelayPort
    try {
      next = connect()
    } catch {
      alive = false
      outbox.clear()
      return
    }
    port = next
    connectedAt = now()
    next.onDisconnect.addListener(() => closed(next))
    next.onMessage.addListener((message) => {
      const checked = checkBackgroundToRelay(message)
      if (!checked.ok) return
      if (checked.value.kind === 'ack') outbox.acknowledge(checked.value.seq)
      else resync()
    })
    const reconnected = everConnected
    everConnected = true
    for (const message of outbox.held()) if (!post(next, message)) return
    if (reconnected) resync()
  }

  function closed(which: RelayPort): void {
    if (port !== which) return
    port = null
    failures = now() - connectedAt >= HEALTHY_MS ? 0 : failures + 1
    // What the worker did not acknowledge may never have reached it: send it again.
    if (eager || !outbox.empty) scheduleOpen()
  }

  function scheduleOpen(): void {
    if (retryPending || !alive || port) return
    retryPending = true
    later(open, BACKOFF_MS[Math.min(failures, BACKOFF_MS.length - 1)]!)
  }

  /** False when the port turned out dead: the message stays held for the next one. */
  function post(to: RelayPort, message: ContentToBackground): boolean {
    try {
      to.postMessage(message)
      outbox.posted(message.seq)
      return true
    } catch {
      // The port died before its disconnect event reached us.
      closed(to)
      return false
    }
  }

  return {
    send(report) {
      if (!alive) return
      const message = outbox.hold(report)
      if (!port || !post(port, message)) scheduleOpen()
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
