// What the extension's scripts use that happy-dom does not have, for the unit tests that run them
// there: idle callbacks, as the next free moment. Through the global `setTimeout` at call time, so
// a test's fake timers drive them as they drive the rest.
if (typeof window !== 'undefined' && typeof globalThis.requestIdleCallback !== 'function')
  globalThis.requestIdleCallback = ((run: () => void) => setTimeout(run, 0)) as unknown as typeof requestIdleCallback
