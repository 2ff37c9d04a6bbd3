// A bridge source (bridge-source.ts) made of a stream of panel events and a config holder: the
// register entry emits each guard event here, already a panel event, and the hub keeps the live
// agents for a snapshot and tells the panels of every config applied.
import type { GuardConfig } from '../../engine/index.ts'
import type { PanelEvent } from '../../extension/src/protocol/events.ts'
import type { BridgeSource } from './bridge-source.ts'
import { LiveAgents } from './live-agents.ts'

export interface ConfigHolder {
  current(): GuardConfig
  /** Puts a config the engine accepted in force for the process's next requests. */
  apply(config: GuardConfig): void
}

export interface EventHub {
  emit(event: PanelEvent): void
  readonly source: BridgeSource
}

export function createEventHub(config: ConfigHolder, now: () => number = Date.now): EventHub {
  const listeners = new Set<(event: PanelEvent) => void>()
  const live = new LiveAgents()
  const emit = (event: PanelEvent): void => {
    live.take(event)
    for (const listener of listeners) {
      try {
        listener(event)
      } catch {
        // A listener's failure loses it this event, never the app a request.
      }
    }
  }
  return {
    emit,
    source: {
      subscribe(listener) {
        listeners.add(listener)
        return () => void listeners.delete(listener)
      },
      snapshot: () => ({ type: 'snapshot', at: now(), agents: live.states(), config: config.current() }),
      configure(next) {
        config.apply(next)
        emit({ type: 'config', at: now(), config: next })
      },
    },
  }
}
