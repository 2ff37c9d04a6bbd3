// Coalesces panel events into batches: at most one send per microtask burst, and at most one
// per frame interval while events keep coming, so a hot agent loop costs one postMessage per frame
// instead of one per call. A batch never passes the protocol's caps; a full one goes out at once.
import { arrayPush } from '../../../engine/intrinsics.ts'
import { LIMITS, type PanelEvent } from '../protocol/events.ts'
import { approxSize } from '../protocol/size.ts'

interface BatcherOptions {
  readonly send: (events: PanelEvent[]) => void
  readonly now: () => number
  readonly microtask: (run: () => void) => void
  readonly later: (run: () => void, ms: number) => void
  /** The minimum time between two scheduled sends; one animation frame by default. */
  readonly intervalMs?: number
}

export interface Batcher {
  push(event: PanelEvent): void
}

export function createBatcher(options: BatcherOptions): Batcher {
  const { send, now, microtask, later, intervalMs = 16 } = options
  let queue: PanelEvent[] = []
  let bytes = 0
  let scheduled = false
  let lastSent = Number.NEGATIVE_INFINITY

  function flush(): void {
    if (queue.length === 0) return
    const events = queue
    queue = []
    bytes = 0
    lastSent = now()
    send(events)
  }

  function runScheduled(): void {
    scheduled = false
    flush()
  }

  return {
    push(event) {
      // One array slot per event on top of the event itself, as the validators count it.
      const size = approxSize(event) + 1
      if (queue.length >= LIMITS.eventsPerBatch || bytes + size > LIMITS.batchBytes) flush()
      arrayPush(queue, event)
      bytes += size
      if (scheduled) return
      scheduled = true
      const wait = lastSent + intervalMs - now()
      if (wait > 0) later(runScheduled, wait)
      else microtask(runScheduled)
    },
  }
}
