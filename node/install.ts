// Puts the guard around the process's global fetch, as the environment's settings say
// (settings.ts), with the span events where the app has OpenTelemetry. What the inspector bridge
// needs is here, in one place (docs/node.md, "The panel and the inspector"): the stream of everything the guard
// reports, the wire agents as they stand, and the config, which applies from the next request.
import type { GuardConfig } from '../engine/index.ts'
import type { WireAgentState } from '../engine/wire/index.ts'
import { createGuardEvents, type GuardEvents } from './guard-events.ts'
import { createGuardedFetch } from './guarded-fetch.ts'
import type { NodeSettings } from './settings.ts'
import { addSpanEvents, loadTraceApi } from './span-events.ts'
import { createWireAnalysis } from './wire-analysis.ts'

export interface InstalledGuard {
  readonly events: GuardEvents
  /** Whether fetch is guarded (not when the mode is off, or the process has no fetch). */
  readonly guarding: boolean
  /** The config in force. */
  config(): GuardConfig
  /** Replaces the config (a resolved one): the next request is guarded by it. */
  configure(config: GuardConfig): void
  /** Every wire agent as it stands. */
  snapshot(): WireAgentState[]
}

export async function installNodeGuard(settings: NodeSettings, target: typeof globalThis = globalThis): Promise<InstalledGuard> {
  const events = createGuardEvents()
  let config = settings.config
  const native = target.fetch
  const guarded = settings.mode !== 'off' && typeof native === 'function'
  const analysis = createWireAnalysis({ observe: settings.mode === 'observe', config: () => config, events })
  if (guarded) {
    const api = await loadTraceApi()
    if (api) addSpanEvents(events, api)
    target.fetch = createGuardedFetch(native, analysis)
  }
  return {
    events,
    guarding: guarded,
    config: () => config,
    configure: (next) => void (config = next),
    snapshot: () => analysis.snapshot(),
  }
}
