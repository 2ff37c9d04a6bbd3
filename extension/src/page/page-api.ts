// `window.__REPEAT_TOOL_GUARD__`: the engine's guard behind a frozen facade. Bad arguments still
// throw the engine's TypeError (the caller must know); anything else that goes wrong inside the
// guard is reported as a fault and the page's call goes on as if no guard were there.
import type { RepeatToolGuard } from '../../../engine/index.ts'
import { errorText } from '../../../engine/text.ts'

export type PageGuard = RepeatToolGuard & { readonly version: number }

/** The engine's argument checks throw TypeErrors with this prefix; they belong to the caller. */
const isArgumentError = (error: unknown) => error instanceof TypeError && error.message.startsWith('repeat-tool-guard:')

export function createPageGuard(guard: RepeatToolGuard, version: number, reportFault: (message: string) => void): PageGuard {
  function shielded<A extends unknown[], R>(name: string, fallback: () => R, run: (...args: A) => R): (...args: A) => R {
    return (...args) => {
      try {
        return run(...args)
      } catch (error) {
        if (isArgumentError(error)) throw error
        reportFault(`${name}: ${errorText(error)}`)
        return fallback()
      }
    }
  }

  return Object.freeze({
    version,
    observe: shielded('observe', () => undefined, guard.observe),
    // The engine's waterfall already reports its own faults and always delegates to `next`;
    // what it throws is the caller's (bad arguments, or `next` itself failing).
    postExecute: (...args: Parameters<RepeatToolGuard['postExecute']>) => guard.postExecute(...args),
    promptSubmit: shielded('promptSubmit', () => undefined, guard.promptSubmit),
    // A gate that fails lets the call run: the page's agent must never be stopped by our fault.
    preExecute: shielded('preExecute', () => ({ kind: 'continue' }) as const, guard.preExecute),
    // A rejected config must reach the caller: it is the engine's GuardConfigError, not a fault.
    configure: (...args: Parameters<RepeatToolGuard['configure']>) => guard.configure(...args),
    subscribe: (...args: Parameters<RepeatToolGuard['subscribe']>) => guard.subscribe(...args),
    snapshot: shielded('snapshot', () => [], guard.snapshot),
    get config() {
      return guard.config
    },
  })
}
