// What the relay gave the service worker and has not seen acknowledged. A port can close with
// messages in flight that the worker never read (Chrome was stopping it, or it stopped before reading
// its queue): those are lost unless sent again, and the snapshot the page sends after a reconnect
// restores the chains but not the calls and reminders in between (the toolbar counts reminders, the
// panel shows each one). So every message is numbered and held until the worker acknowledges it or
// a later one of the same stream; whatever a closed port left is sent again on the next, in order.
import type { ContentReport, ContentToBackground } from '../protocol/messages.ts'
import { approxSize } from '../protocol/size.ts'

export interface OutboxLimits {
  readonly messages: number
  readonly bytes: number
}

export interface Outbox {
  /** Numbers `report` and holds it; the oldest go first past the limits. */
  hold(report: ContentReport): ContentToBackground
  /** What a fresh port must carry, oldest first; those posted before are marked `resent`. */
  held(): ContentToBackground[]
  /** `seq` went to a port. */
  posted(seq: number): void
  /** The worker handled everything up to `seq`. */
  acknowledge(seq: number): void
  clear(): void
  readonly empty: boolean
}

/** A stream name the page cannot guess or read (the relay runs in the isolated world). */
export function randomStream(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(12))
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')
}

export function createOutbox(limits: OutboxLimits, stream: string = randomStream()): Outbox {
  const entries: { message: ContentToBackground; bytes: number }[] = []
  let heldBytes = 0
  let nextSeq = 1
  let lastPosted = 0

  const dropOldest = () => {
    heldBytes -= entries.shift()!.bytes
  }

  return {
    hold(report) {
      const message: ContentToBackground = { ...report, stream, seq: nextSeq++ }
      const bytes = approxSize(message)
      entries.push({ message, bytes })
      heldBytes += bytes
      // The newest stays even alone over the bytes: the protocol caps a message's size.
      while (entries.length > limits.messages || (heldBytes > limits.bytes && entries.length > 1)) dropOldest()
      return message
    },
    held: () => entries.map(({ message }) => (message.seq <= lastPosted ? { ...message, resent: true } : message)),
    posted(seq) {
      lastPosted = Math.max(lastPosted, seq)
    },
    acknowledge(seq) {
      while (entries.length > 0 && entries[0]!.message.seq <= seq) dropOldest()
    },
    clear() {
      entries.length = 0
      heldBytes = 0
    },
    get empty() {
      return entries.length === 0
    },
  }
}
