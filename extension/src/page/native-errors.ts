// What a hooked native method throws, given back to the page as the native would have thrown it.
// The hook's trap calls the native, so an error the native raises is made with the trap as its top
// frame: its `stack` names the extension's `page.js` (Chromium), or `<anonymous code>` (Firefox),
// and error-reporting scripts on the page would file that frame as the page's. When no argument is
// an object, nothing of the page's ran inside the native call (no conversion called a `toString`,
// no getter was read), so the error is the native's own: its stack is taken again from the trap's
// caller on, the stack the page gets without the extension (in Chromium, `window.onerror` is then
// given the page's line too). With an object among the arguments, the page's own code may have
// thrown from inside the native call: that error is given back untouched, since taking its stack
// again would drop the page's own frames along with the trap's. See docs/security.md, "Errors through the
// hooks". Nothing here runs unless the native call threw.
import { NativeError } from '../../../engine/intrinsics.ts'

type Capture = (error: object, omitFrom: (...args: never[]) => unknown) => void

// Captured at document_start, with the rest of the page script's built-ins; absent in a browser
// without it (the error then goes back untouched).
const { captureStackTrace } = NativeError as unknown as { readonly captureStackTrace?: Capture }

/** `error`, thrown by the native call that `trap` made with `args`, ready to be rethrown. */
export function asNativeThrew(error: unknown, args: readonly unknown[], trap: (...args: never[]) => unknown): unknown {
  // With no object among the arguments, what the native threw is one of its own errors, never the page's.
  if (captureStackTrace === undefined || typeof error !== 'object' || error === null) return error
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]
    if ((typeof arg === 'object' && arg !== null) || typeof arg === 'function') return error
  }
  captureStackTrace(error as object, trap)
  return error
}
