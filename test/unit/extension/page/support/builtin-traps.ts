// A page that traps its built-ins after load, for the hooks' unit tests: every method and getter of
// the usual owners, what `instanceof` reads of the constructors the hooks meet, the global
// constructors themselves, and the first two indices of every array (what reading an argument the
// page did not pass falls through to). Each trap calls the original, so the test runner keeps
// working; while armed, it notes its name. Armed means the hook's own code runs: the fakes that
// stand for the browser, the page and the analysis disarm while they run, and arm again around the
// hook's functions they call back (a Proxy's trap, a URL or body callback).

import { COMMON_INSTANCE_CHECKS, COMMON_OWNERS, GLOBAL_CONSTRUCTORS, trapBuiltins } from '../../../../support/builtin-trap-core.ts'

export interface Traps {
  /** The names of the trapped built-ins called while armed, in order. */
  readonly hits: string[]
  /** Runs `run` (the page's call of a hooked method) with the traps in place and armed; all of them are taken out after. */
  armedDuring<R>(run: () => R): R
  /** For a fake: runs `run` disarmed (the browser's, the page's or the analysis's own code). */
  outside<R>(run: () => R): R
  /** For a fake: runs `run` armed (a function of the hook's that the fake calls back). */
  inside<R>(run: () => R): R
}

// The test's own plumbing, captured before any trap is in place.
const { getOwnPropertyDescriptor, defineProperty } = Reflect

/**
 * Left alone: `Promise.prototype.then` reads it, the captured one included, to make the promise it
 * returns, and a hook follows a tool's promise with that `then` as the browser follows it (docs/security.md,
 * "A page that replaces built-ins").
 */
const SPARED = ['Promise.[Symbol.species]']

export function createTraps(): Traps {
  const hits: string[] = []
  let armed = false
  const note = (name: string): void => {
    if (armed) hits[hits.length] = name
  }

  /** Puts every trap in place; returns what takes them out again. */
  function install(): () => void {
    const undo: (() => void)[] = []
    const replace = (owner: object, key: PropertyKey, descriptor: PropertyDescriptor): void => {
      const before = getOwnPropertyDescriptor(owner, key)
      defineProperty(owner, key, descriptor)
      undo[undo.length] = () => (before === undefined ? void delete (owner as Record<PropertyKey, unknown>)[key] : void defineProperty(owner, key, before))
    }
    trapBuiltins({ owners: COMMON_OWNERS, withInstanceChecks: COMMON_INSTANCE_CHECKS, globals: GLOBAL_CONSTRUCTORS, global: globalThis, spared: SPARED }, note, replace)
    // An array without an element of its own at 0 or 1 reads it from here; writing one makes it its own.
    for (let index = 0; index < 2; index++) {
      replace(Array.prototype, index, {
        get: () => void note(`Array.prototype[${index}]`),
        set(this: object, value: unknown) {
          defineProperty(this, index, { value, writable: true, enumerable: true, configurable: true })
        },
        configurable: true,
      })
    }
    return () => {
      for (let i = undo.length - 1; i >= 0; i--) undo[i]!()
    }
  }

  const during =
    (state: boolean) =>
    <R>(run: () => R): R => {
      const before = armed
      armed = state
      try {
        return run()
      } finally {
        armed = before
      }
    }
  return {
    hits,
    armedDuring(run) {
      const uninstall = install()
      try {
        return during(true)(run)
      } finally {
        uninstall()
      }
    },
    outside: during(false),
    inside: during(true),
  }
}
