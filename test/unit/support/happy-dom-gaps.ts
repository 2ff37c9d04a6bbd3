// What the extension's scripts use that happy-dom does not have, for the unit tests that run them
// there: idle callbacks, as the next free moment (through the global `setTimeout` at call time, so
// a test's fake timers drive them as they drive the rest), and a window's `origin`, as its
// location's.
if (typeof window !== 'undefined' && typeof globalThis.requestIdleCallback !== 'function')
  globalThis.requestIdleCallback = ((run: () => void) => setTimeout(run, 0)) as unknown as typeof requestIdleCallback

if (typeof window !== 'undefined' && !('origin' in window)) Object.defineProperty(window, 'origin', { get: () => window.location.origin, configurable: true })
