// Connects the playground's own engine to the panel's store: its events go through the
// same adapter the extension's page script uses, and its config editor applies to the engine.
import { RECOMMENDED_CONFIG, resolveConfig, type RepeatToolGuard } from '../../engine/index.ts'
import type { ConfigSink } from '../../extension/src/panel/components/config-sink.ts'
import type { PanelStore } from '../../extension/src/panel/store/panel-store.ts'
import { fromEngineEvent, snapshotEvent } from '../../extension/src/protocol/from-engine.ts'
import type { PanelEvent } from '../../extension/src/protocol/events.ts'

/** Feeds `store` with the guard's events, one batch per burst; returns the unsubscribe. */
export function feedPanelStore(guard: RepeatToolGuard, store: PanelStore, url: string): () => void {
  let pending: PanelEvent[] = []
  const flush = () => {
    const events = pending
    pending = []
    store.ingest({ frameId: 0, url, events })
  }
  // The state so far first: agents the guard already knows and the config in force.
  store.ingest({ frameId: 0, url, events: [snapshotEvent(guard.snapshot(), guard.config, Date.now())] })
  const unsubscribe = guard.subscribe((event) => {
    if (pending.length === 0) queueMicrotask(flush)
    pending.push(fromEngineEvent(event))
  })
  return () => {
    unsubscribe()
    if (pending.length > 0) flush()
  }
}

/** The config editor's sink: the engine validates and applies; the editor follows its changes. */
export function engineConfigSink(guard: RepeatToolGuard): ConfigSink {
  return {
    current: () => guard.config,
    // `configure` would fill keys left out from the config in force; the extension fills them
    // from the recommended config (its content script), and the playground must behave the same.
    apply: async (config) => void guard.configure(resolveConfig(config, RECOMMENDED_CONFIG)),
    subscribe: (listener) => guard.subscribe((event) => event.type === 'config' && listener()),
  }
}
