// A guard that hands every call to the guard `target()` returns when the call is made, so what
// stands behind `window.__REPEAT_TOOL_GUARD__` can be built (and loaded) on first use.
import type { RepeatToolGuard } from '../../../engine/index.ts'

export function forwardGuard(target: () => RepeatToolGuard): RepeatToolGuard {
  return {
    observe: (...args) => target().observe(...args),
    postExecute: (...args) => target().postExecute(...args),
    promptSubmit: (...args) => target().promptSubmit(...args),
    configure: (...args) => target().configure(...args),
    subscribe: (...args) => target().subscribe(...args),
    snapshot: () => target().snapshot(),
    get config() {
      return target().config
    },
  }
}
