// A Proxy over a native function already answers `name` and `length` as the function does, but
// `Function.prototype.toString` prints a Proxy as an anonymous native function. Pages (and their
// anti-tamper checks) compare that text, so each hook (fetch, XMLHttpRequest's methods, a worker's
// postMessage...) has to print as the original it stands for. One `toString` stands in for all of
// them: a second Proxy over the first would print itself differently. Every function of the page
// is printed through it, so it calls only built-ins captured at document_start: a page that later
// replaces `WeakMap.prototype.get` or `Reflect.apply` still prints its functions.
import { callFunction, weakMapGet, weakMapSet } from '../../../engine/intrinsics.ts'

/** Makes `Function.prototype.toString` print a stand-in exactly as it prints its original. */
export type ShowAsNative = (stand: object, original: object) => void

export function createNativeLook(target: typeof globalThis): ShowAsNative {
  let shownAs: WeakMap<object, object> | undefined

  function installToString(): WeakMap<object, object> {
    const prototype = target.Function.prototype
    const descriptor = Object.getOwnPropertyDescriptor(prototype, 'toString')
    const nativeToString = prototype.toString
    const map = new WeakMap<object, object>()
    const toString = new Proxy(nativeToString, {
      apply: (fn, self: unknown, args: unknown[]) => callFunction(fn, (typeof self === 'function' && weakMapGet(map, self)) || self, args),
    })
    weakMapSet(map, toString, nativeToString)
    Object.defineProperty(prototype, 'toString', { ...descriptor, value: toString })
    return map
  }

  return (stand, original) => {
    shownAs ??= installToString()
    weakMapSet(shownAs, stand, original)
  }
}
