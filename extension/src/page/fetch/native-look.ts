// A Proxy over a native function already answers `name` and `length` as the function does, but
// `Function.prototype.toString` prints a Proxy as an anonymous native function. Pages (and their
// anti-tamper checks) compare that text, so it has to be the original's.

/** Makes `Function.prototype.toString` print `stand` (and itself) exactly as it prints `original`. */
export function printAsNative(target: typeof globalThis, stand: object, original: object): void {
  const prototype = target.Function.prototype
  const descriptor = Object.getOwnPropertyDescriptor(prototype, 'toString')
  const nativeToString = prototype.toString
  const shownAs = new WeakMap<object, object>([[stand, original]])
  const toString = new Proxy(nativeToString, {
    apply: (fn, self: unknown, args: unknown[]) =>
      Reflect.apply(fn, (typeof self === 'function' && shownAs.get(self)) || self, args),
  })
  shownAs.set(toString, nativeToString)
  Object.defineProperty(prototype, 'toString', { ...descriptor, value: toString })
}
