// `window.__REPEAT_TOOL_GUARD__`: the engine's guard behind a frozen facade. Bad arguments still
// throw the engine's TypeError (the caller must know); anything else that goes wrong inside the
// guard is reported as a fault and the page's call goes on as if no guard were there.
import { GuardConfigError, type RepeatToolGuard, UsageError } from '../../../engine/index.ts'
import { callFunction, freeze, hasInstance } from '../../../engine/intrinsics.ts'
import { errorText } from '../../../engine/safe-reading.ts'

export type PageGuard = RepeatToolGuard & { readonly version: number }

export function createPageGuard(guard: RepeatToolGuard, version: number, reportFault: (message: string) => void): PageGuard {
  // `error` is the caller's to see when it is one of `expected`; anything else becomes a fault.
  function shielded<A extends unknown[], R>(
    name: string,
    fallback: () => R,
    run: (...args: A) => R,
    expected: (error: unknown) => boolean = (error) => hasInstance(UsageError, error),
  ): (...args: A) => R {
    return (...args) => {
      try {
        return callFunction(run, undefined, args)
      } catch (error) {
        if (expected(error)) throw error
        try {
          reportFault(`${name}: ${errorText(error)}`)
        } catch {
          // Reporting failed too: the page's call must still complete.
        }
        return fallback()
      }
    }
  }

  return freeze({
    version,
    observe: shielded('observe', () => undefined, guard.observe),
    // The engine's waterfall already reports its own faults and always delegates to `next`;
    // what it throws is the caller's (bad arguments, or `next` itself failing).
    postExecute: (...args: Parameters<RepeatToolGuard['postExecute']>) => callFunction(guard.postExecute, undefined, args),
    promptSubmit: shielded('promptSubmit', () => undefined, guard.promptSubmit),
    // A gate that fails lets the call run: the page's agent must never be stopped by our fault.
    preExecute: shielded('preExecute', () => ({ kind: 'continue' }) as const, guard.preExecute),
    // A rejected config must reach the caller: it is the engine's GuardConfigError, not a fault.
    configure: shielded(
      'configure',
      () => guard.config,
      guard.configure,
      (error) => hasInstance(GuardConfigError, error),
    ),
    subscribe: (...args: Parameters<RepeatToolGuard['subscribe']>) => callFunction(guard.subscribe, undefined, args),
    snapshot: shielded('snapshot', () => [], guard.snapshot),
    get config() {
      return guard.config
    },
  })
}
