// Generated tool-call arguments, for the tests that check a shortcut decides exactly as the
// canonical serialiser does: JSON values and what JSON leaves out or converts (functions, dates,
// toJSON, getters, boxed primitives, BigInts), nested objects and arrays with holes, own
// `__proto__` keys, cycles, proxies and other prototypes, arguments around the depth cap, and
// variants of each that may or may not keep its canonical form.

/** mulberry32: a small seeded generator, so a failing case can be replayed from its seed. */
export function random(seed: number) {
  let state = seed >>> 0
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  const int = (n: number) => Math.floor(next() * n)
  return { int, chance: (p: number) => next() < p, pick: <T>(items: readonly T[]): T => items[int(items.length)]! }
}
export type Random = ReturnType<typeof random>

export const STRINGS = [
  '',
  'a',
  'src/index.ts',
  'é',
  '😀',
  '\ud800',
  '\udc00',
  'a\ud83db',
  '"quoted"',
  '\\',
  '\n\t',
  '\u2028',
  '\u0000',
  '{"b":1,"a":2}',
  '[1, 2]',
  'null',
  '12',
  '{"id":1800000000000000001}',
  '[1800000000000000002, 0.30000000000000001]',
]
export const NUMBERS = [0, -0, 1, -1, 1.5, 1e21, 1e-7, NaN, Infinity, -Infinity, 2 ** 53, 5e-324, 100]
export const KEYS = ['a', 'b', 'c', 'path', '__proto__', '10', '9', 'é', '😀', '\ud800', '', 'toJSON ']

/** A leaf: JSON values and what JSON leaves out or converts (functions, dates, toJSON, getters, boxed primitives). */
export function leaf(rng: Random): unknown {
  switch (rng.int(13)) {
    case 0:
    case 1:
    case 2:
      return rng.pick(STRINGS)
    case 3:
    case 4:
      return rng.pick(NUMBERS)
    case 5:
      return rng.pick([true, false, null])
    case 6:
      return rng.pick([undefined, () => 1, Symbol('s')])
    case 7:
      return new Date(rng.pick([0, 1e12]))
    case 8:
      // toJSON gets the key it is read under, from JSON.stringify and from the canonical serialiser.
      return rng.chance(0.5) ? { toJSON: () => 'converted' } : { toJSON: (key: string) => `under ${key}` }
    case 9:
      return Object.defineProperty({}, 'read', { get: () => 'by a getter', enumerable: true, configurable: true })
    case 10:
      return rng.chance(0.2) ? 12345678901234567890n : rng.pick(STRINGS)
    case 11:
      return boxed(rng.pick([1, 0, -0, NaN, 1.5, 'ab', '', 'é', true, false]), rng.chance(0.3))
    default:
      return rng.pick(NUMBERS)
  }
}

// What the generator boxed, and the primitive in each box: the variants unbox them, and leave
// their members alone (a String's are read-only).
const boxedValues = new WeakMap<object, number | string | boolean>()

/**
 * `value` boxed, optionally with the prototype of a plain object: JSON.stringify still writes
 * the primitive (or, without its prototype's `valueOf`, `null` or `"[object String]"`), the
 * canonical serialiser writes an object of its own keys (`{}`, or a String's characters).
 */
function boxed(value: number | string | boolean, plainPrototype: boolean): object {
  const box: object = Object(value)
  if (plainPrototype) Object.setPrototypeOf(box, Object.prototype)
  boxedValues.set(box, value)
  return box
}

/** An array subclass: JSON writes its instances as arrays, the walk must not take them for the run's. */
class Items extends Array<unknown> {}

/**
 * An object or array of up to four members, some nested, with holes, own `__proto__` keys and
 * cycles; some arrays with another prototype, some objects with none, some behind a proxy.
 */
function container(rng: Random, depth: number): object {
  const member = () => (depth > 0 && rng.chance(0.45) ? container(rng, depth - 1) : leaf(rng))
  if (rng.chance(0.4)) {
    // Some arrays hold objects only: the walk's arrays of objects.
    const ofObjects = depth > 0 && rng.chance(0.15)
    const items: unknown[] = Array.from({ length: rng.int(5) }, ofObjects ? () => container(rng, depth - 1) : member)
    if (items.length > 1 && rng.chance(0.2)) delete items[rng.int(items.length)]
    if (rng.chance(0.03)) items.push(items)
    return reshaped(rng, items)
  }
  const fields: Record<string, unknown> = rng.chance(0.15) ? Object.create(null) : {}
  for (let i = rng.int(5); i > 0; i--) Object.defineProperty(fields, rng.pick(KEYS), { value: member(), enumerable: true, configurable: true, writable: true })
  if (rng.chance(0.03)) fields.self = fields
  return reshaped(rng, fields)
}

/** `value` as it is, behind a proxy that forwards everything, or (an array) with another prototype. */
function reshaped(rng: Random, value: object): object {
  switch (rng.int(20)) {
    case 0:
    case 1:
      return new Proxy(value, {})
    case 2:
      return Array.isArray(value) ? Object.setPrototypeOf(value, rng.pick([Object.prototype, Items.prototype, null])) : value
    default:
      return value
  }
}

/** Arguments nested around the canonical form's depth cap (256): the innermost object is empty. */
function deep(rng: Random): object {
  let value: object = rng.chance(0.8) ? {} : { z: rng.pick(STRINGS) }
  for (let level = 254 + rng.int(6); level > 1; level--) value = rng.chance(0.5) ? [value] : { k: value }
  return value
}

/** One call's arguments, built from `seed`: the same seed builds equal arguments, as new objects. */
export function argumentsFrom(seed: number): unknown {
  const rng = random(seed)
  const kind = rng.int(10)
  if (kind === 0 || kind === 9) return deep(rng)
  if (kind === 1) return rng.pick(STRINGS)
  if (kind === 2) return leaf(rng)
  return container(rng, 1 + rng.int(4))
}

/** Every object and array in `value`, each once. */
function containersOf(value: unknown, found: object[] = []): object[] {
  if (typeof value !== 'object' || value === null || found.includes(value) || boxedValues.has(value)) return found
  found.push(value)
  for (const key of Object.keys(value)) containersOf((value as Record<string, unknown>)[key], found)
  return found
}

/**
 * A member replaced by one JSON may write the same way: boxed or unboxed, behind a proxy, with
 * another prototype, a copy with its keys in the same order, left out, or a number JSON writes
 * the same (`NaN` and `null`, `-0` and `0`).
 */
function rereadMember(member: unknown, rng: Random): unknown {
  if (typeof member === 'object' && member !== null) {
    if (boxedValues.has(member)) return boxedValues.get(member)
    switch (rng.int(4)) {
      case 0:
        return new Proxy(member, {})
      case 1:
        return Array.isArray(member) ? Object.setPrototypeOf(member, rng.pick([Object.prototype, Items.prototype, null])) : Object.assign(Object.create(null), member)
      case 2:
        return Array.isArray(member) ? Array.prototype.slice.call(member) : { ...member }
      default:
        return undefined
    }
  }
  switch (typeof member) {
    case 'number':
      return rng.chance(0.5) ? boxed(member, rng.chance(0.3)) : Number.isFinite(member) ? -member : null
    case 'string':
    case 'boolean':
      return boxed(member, rng.chance(0.3))
    default:
      return member === null ? rng.pick([NaN, Infinity, undefined]) : null
  }
}

/** `value` with one change: one that keeps its canonical form, or one that may not. */
export function variant(value: unknown, rng: Random): unknown {
  const containers = containersOf(value)
  // Often the innermost: in deep arguments, that is where the depth cap falls.
  const target = containers.length > 0 ? (rng.chance(0.5) ? containers[containers.length - 1]! : rng.pick(containers)) : undefined
  switch (target === undefined ? 0 : rng.int(8)) {
    case 0:
      // The same arguments, as a string of JSON where JSON can write them, a BigInt as its digits.
      try {
        return JSON.stringify(value, (_key, member: unknown) => (typeof member === 'bigint' ? `\u0000bigint ${member}` : member))?.replace(/"\\u0000bigint (-?\d+)"/g, '$1') ?? value
      } catch {
        return value
      }
    case 1: {
      // The same members in another order.
      const entries = Object.entries(target!)
      const shuffled = entries
        .map((entry) => [rng.int(1000), entry] as const)
        .sort((a, b) => a[0] - b[0])
        .map(([, entry]) => entry)
      for (const [key] of entries) delete (target as Record<string, unknown>)[key]
      for (const [key, member] of shuffled) Object.defineProperty(target, key, { value: member, enumerable: true, configurable: true, writable: true })
      return value
    }
    case 2:
      // A member JSON leaves out: the same text, the same canonical form, except past the cap.
      ;(target as Record<string, unknown>)[rng.pick(['a', 'u', '__proto__'])] = rng.pick([undefined, () => 2])
      return value
    case 3: {
      const keys = Object.keys(target!)
      if (keys.length > 0) delete (target as Record<string, unknown>)[rng.pick(keys)]
      return value
    }
    case 4:
      ;(target as Record<string, unknown>)[Array.isArray(target) ? String(rng.int(4)) : rng.pick(KEYS)] = leaf(rng)
      return value
    case 5:
      return argumentsFrom(rng.int(1 << 30))
    case 6: {
      // One member read another way: what the walk must refuse, or read as the canonical form does.
      const keys = Object.keys(target!)
      if (keys.length > 0) {
        const key = rng.pick(keys)
        const member = rereadMember((target as Record<string, unknown>)[key], rng)
        Object.defineProperty(target, key, { value: member, enumerable: true, configurable: true, writable: true })
      } else if (Array.isArray(target)) target.length = 1 + rng.int(2)
      return value
    }
    default:
      // The same arguments.
      return value
  }
}
