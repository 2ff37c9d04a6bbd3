// The core of a page that replaces its built-ins after load with traps, shared by the hooks' unit
// tests (in Node, test/unit/extension/page/support/builtin-traps.ts) and their end-to-end tests (inside a real
// page, test/e2e/extension/builtin-traps.ts): every method and getter of the given owners, the
// `Symbol.hasInstance` of the given constructors (what `instanceof` reads) and the given global
// constructors themselves, each a wrapper that calls `note` with its name and then the original,
// so the page keeps working. What counts as a hit is the caller's `note`.
//
// `trapBuiltins` runs inside the page too, turned to text and back: it uses nothing from outside
// itself, and `note` must be the trap's direct callee (the end-to-end `note` reads its caller from
// the stack, two frames up).

/**
 * What to trap, named as hits are noted: a global (`Object`), a global's prototype
 * (`Array.prototype`), or an iterator's prototype (`ArrayIterator`, `StringIterator`).
 */
export interface TrapPlan {
  readonly owners: readonly string[]
  /** Constructors on `global` whose `Symbol.hasInstance` is trapped. */
  readonly withInstanceChecks: readonly string[]
  /** Constructors on `global` whose calls and `new` are noted, as `Name()` and `new Name`. */
  readonly globals: readonly string[]
  readonly global: object
  /** Members left alone, as `Owner.member`. */
  readonly spared: readonly string[]
}

/** The owners both the unit and the end-to-end traps cover. */
export const COMMON_OWNERS = [
  'Object',
  'Object.prototype',
  'Array',
  'Array.prototype',
  'ArrayIterator',
  'String',
  'String.prototype',
  'JSON',
  'Promise',
  'Promise.prototype',
  'Reflect',
  'Function.prototype',
  'RegExp.prototype',
  'Map.prototype',
  'Set.prototype',
  'WeakMap.prototype',
  'Error',
]
/** The constructors whose `instanceof` both cover. */
export const COMMON_INSTANCE_CHECKS = ['URL', 'Error', 'TypeError', 'DOMException', 'Promise']
export const GLOBAL_CONSTRUCTORS = ['Proxy', 'Object', 'Array', 'String', 'Number', 'Boolean', 'Promise', 'Error', 'Map', 'Set', 'WeakMap']

/** Puts a trap in place of `owner[key]` (the caller decides whether it can be taken out again). */
export type Replace = (owner: object, key: PropertyKey, descriptor: PropertyDescriptor) => void

/** Traps every built-in of `plan`; returns how many there are. */
export function trapBuiltins(plan: TrapPlan, note: (name: string) => void, replace: Replace): number {
  const { apply, construct, ownKeys, getOwnPropertyDescriptor, getPrototypeOf } = Reflect
  const NativeProxy = Proxy
  const ordinaryHasInstance = Function.prototype[Symbol.hasInstance]
  const indexOf = Array.prototype.indexOf
  let count = 0
  const trapOf = (name: string, original: (...args: unknown[]) => unknown) =>
    function (this: unknown, ...args: unknown[]): unknown {
      note(name)
      return apply(original, this, args)
    }
  const global = plan.global as Record<string, (...args: unknown[]) => unknown>
  const PROTOTYPE = '.prototype'
  const named = (name: string): object => {
    if (name === 'ArrayIterator') return getPrototypeOf([][Symbol.iterator]()) as object
    if (name === 'StringIterator') return getPrototypeOf(''[Symbol.iterator]()) as object
    const isPrototype = name.length > PROTOTYPE.length && name.slice(-PROTOTYPE.length) === PROTOTYPE
    return isPrototype ? (global[name.slice(0, -PROTOTYPE.length)]!.prototype as object) : global[name]!
  }
  // All found before the first trap is in place.
  const owners = plan.owners.map(named)
  const constructors = plan.withInstanceChecks.map(named)
  for (let i = 0; i < owners.length; i++) {
    const label = plan.owners[i]!
    const owner = owners[i]!
    const keys = ownKeys(owner)
    for (let k = 0; k < keys.length; k++) {
      const key = keys[k]!
      const descriptor = getOwnPropertyDescriptor(owner, key)!
      const name = `${label}.${typeof key === 'symbol' ? `[${key.description}]` : key}`
      if (!descriptor.configurable || key === 'constructor' || (apply(indexOf, plan.spared, [name]) as number) >= 0) continue
      if (typeof descriptor.value === 'function') replace(owner, key, { ...descriptor, value: trapOf(name, descriptor.value) })
      else if (typeof descriptor.get === 'function') replace(owner, key, { ...descriptor, get: trapOf(name, descriptor.get) })
      else continue
      count++
    }
  }
  for (let i = 0; i < plan.withInstanceChecks.length; i++) {
    const name = `${plan.withInstanceChecks[i]!}[Symbol.hasInstance]`
    replace(constructors[i]!, Symbol.hasInstance, { value: trapOf(name, ordinaryHasInstance), configurable: true })
    count++
  }
  for (let i = 0; i < plan.globals.length; i++) {
    const name = plan.globals[i]!
    const wrapper: (...args: unknown[]) => unknown = new NativeProxy(global[name]!, {
      apply(target, self, args) {
        note(`${name}()`)
        return apply(target, self, args)
      },
      construct(target, args, newTarget): object {
        note(`new ${name}`)
        return construct(target, args, newTarget === wrapper ? target : newTarget) as object
      },
    })
    replace(global, name, { value: wrapper, writable: true, enumerable: false, configurable: true })
    count++
  }
  return count
}
