// Puts the guard around the process's global fetch, as the environment's settings say
// (settings.ts), with the span events where the app has OpenTelemetry. Everything it reports
// goes through one stream of events, which the inspector bridge will also listen to.
import { createGuardEvents, type GuardEvents } from './guard-events.ts'
import { createGuardedFetch } from './guarded-fetch.ts'
import type { NodeSettings } from './settings.ts'
import { addSpanEvents, loadTraceApi } from './span-events.ts'

export interface InstalledGuard {
  readonly events: GuardEvents
  /** Whether fetch is guarded (not when the mode is off, or the process has no fetch). */
  readonly guarding: boolean
}

export async function installNodeGuard(settings: NodeSettings, target: typeof globalThis = globalThis): Promise<InstalledGuard> {
  const events = createGuardEvents()
  const native = target.fetch
  if (settings.mode === 'off' || typeof native !== 'function') return { events, guarding: false }
  const api = await loadTraceApi()
  if (api) addSpanEvents(events, api)
  const { config } = settings
  target.fetch = createGuardedFetch({ native, observe: settings.mode === 'observe', config: () => config, events })
  return { events, guarding: true }
}
