import { freeze, joined, without } from './intrinsics.ts'
import type { GuardEvent, GuardListener } from './types.ts'

interface Emitter {
  /** Whether anyone listens: the guard skips building events nobody would read. */
  readonly listening: boolean
  /** Freezes `event` and hands it to every listener; a no-op when nobody listens. */
  emit(event: GuardEvent): void
  subscribe(listener: GuardListener): () => void
}

/**
 * Listeners are inspectors: one that throws, or tries to change an event, never reaches the agent
 * loop or the other listeners. Events are frozen (the reminder and the config inside them too).
 */
export function createEmitter(): Emitter {
  // Copied on subscribe and unsubscribe, not per event: a listener that subscribes another while
  // an event is being delivered does not hand it that event.
  let listeners: readonly GuardListener[] = []
  return {
    get listening() {
      return listeners.length > 0
    },
    emit(event) {
      if (listeners.length === 0) return
      freeze(event)
      const current = listeners
      for (let i = 0; i < current.length; i++) {
        try {
          current[i](event)
        } catch {
          // The inspector's own problem; the next listener still gets the event.
        }
      }
    },
    subscribe(listener) {
      if (typeof listener !== 'function') throw new TypeError(`repeat-tool-guard: subscribe(listener) expects a function, got ${typeof listener}`)
      listeners = joined(listeners, [listener])
      let subscribed = true
      return () => {
        if (!subscribed) return
        subscribed = false
        listeners = without(listeners, listener)
      }
    },
  }
}
