// What a registered process's guard reports, from one place: the wire guard's events for each
// LLM request it analysed, and its faults. The OpenTelemetry span events (otel-events.ts) listen
// here, and so does the inspector bridge (docs/node.md, "The panel and the inspector"): a listener added late
// misses nothing it needs, since a wire agent's state is in every later request's events.
import type { WireEvent } from '../engine/wire/index.ts'

export type NodeGuardEvent =
  | {
      readonly type: 'wire'
      /** The request's URL, as the app named it. */
      readonly url: string
      /** Observe mode: the request went out as the app made it, any reminder only reported. */
      readonly observed: boolean
      readonly event: WireEvent
    }
  /** The guard failed on a request; the request went out as the app made it. */
  | { readonly type: 'fault'; readonly at: number; readonly message: string }

export type NodeGuardListener = (event: NodeGuardEvent) => void

export interface GuardEvents {
  /** Calls `listener` with every later event; the function returned stops it. */
  subscribe(listener: NodeGuardListener): () => void
  emit(event: NodeGuardEvent): void
}

export function createGuardEvents(): GuardEvents {
  const listeners = new Set<NodeGuardListener>()
  return {
    subscribe(listener) {
      listeners.add(listener)
      return () => void listeners.delete(listener)
    },
    emit(event) {
      for (const listener of listeners) {
        try {
          listener(event)
        } catch {
          // A listener's failure loses it this event, never the app a request.
        }
      }
    },
  }
}
