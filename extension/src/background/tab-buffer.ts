// A tab's recent batches, so a panel opened late (or reopened) starts from history instead of a
// blank page. Bounded in events and bytes; the oldest batches go first and the buffer remembers
// that it was trimmed, so the panel can say so.
import type { TabBatch } from '../protocol/messages.ts'
import { approxSize } from '../protocol/size.ts'

export interface TabBufferLimits {
  readonly maxEvents: number
  readonly maxBytes: number
}

const DEFAULT_TAB_BUFFER_LIMITS: TabBufferLimits = { maxEvents: 10_000, maxBytes: 8 * 1024 * 1024 }

export interface TabBuffer {
  /** `bytes`: the batch's `approxSize`, when the caller already has it. */
  append(batch: TabBatch, bytes?: number): void
  batches(): TabBatch[]
  readonly truncated: boolean
  readonly empty: boolean
}

export function createTabBuffer(limits: TabBufferLimits = DEFAULT_TAB_BUFFER_LIMITS): TabBuffer {
  const entries: { batch: TabBatch; bytes: number }[] = []
  let events = 0
  let bytes = 0
  let truncated = false

  return {
    append(batch, known) {
      const size = known ?? approxSize(batch)
      entries.push({ batch, bytes: size })
      events += batch.events.length
      bytes += size
      // The newest batch always stays, even alone over the limits: it is capped by the protocol.
      while (entries.length > 1 && (events > limits.maxEvents || bytes > limits.maxBytes)) {
        const oldest = entries.shift()!
        events -= oldest.batch.events.length
        bytes -= oldest.bytes
        truncated = true
      }
    },
    batches: () => entries.map((e) => e.batch),
    get truncated() {
      return truncated
    },
    get empty() {
      return entries.length === 0
    },
  }
}
