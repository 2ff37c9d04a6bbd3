// The engine's guard, built by the first call that needs it: a page that never runs an agent never
// pays for one. Until then `config` answers the config in force (the recommended one, or the one
// the extension delivered), which is the config the engine then starts with.
import { RECOMMENDED_CONFIG, resolveConfig, type GuardConfig, type RepeatToolGuard } from '../../../engine/index.ts'
import { forwardGuard } from './forward-guard.ts'

export interface LazyGuard extends RepeatToolGuard {
  /** The engine's guard, once a call needed it. */
  readonly built: RepeatToolGuard | undefined
  /**
   * A config from the extension: the running engine applies it, else it is the one the engine will
   * start with. Throws the engine's `GuardConfigError` and keeps the config in force.
   */
  deliver(config: GuardConfig): void
}

export function createLazyGuard(start: (config: GuardConfig) => RepeatToolGuard): LazyGuard {
  let built: RepeatToolGuard | undefined
  let pending = RECOMMENDED_CONFIG
  const calls = forwardGuard(() => (built ??= start(pending)))
  return {
    observe: calls.observe,
    postExecute: calls.postExecute,
    promptSubmit: calls.promptSubmit,
    configure: calls.configure,
    subscribe: calls.subscribe,
    snapshot: calls.snapshot,
    get config() {
      return built ? built.config : pending
    },
    get built() {
      return built
    },
    deliver(config) {
      if (built) built.configure(config)
      else pending = resolveConfig(config, pending)
    },
  }
}
