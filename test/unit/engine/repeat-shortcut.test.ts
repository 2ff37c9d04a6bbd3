// A chain recognises a repeat by the plain text of its arguments, without building their
// canonical form. These tests check it decides every pair of calls exactly as comparing canonical
// forms does, over generated arguments, and that it does skip the canonical form when it can.
import { afterEach, describe, expect, it, vi } from 'vitest'
import { canonicalArguments, createRepeatToolGuard } from '../../../engine/index.ts'
import { ofType, recordEvents } from './support/events.ts'

// Counts the canonical serialisations the guard asks for; the function itself is the real one.
const serialised = vi.hoisted(() => ({ calls: 0 }))
vi.mock('../../../engine/canonical.ts', async (importOriginal) => {
  const canonical = await importOriginal<typeof import('../../../engine/canonical.ts')>()
  return {
    ...canonical,
    canonicalArguments: (value: unknown) => {
      serialised.calls++
      return canonical.canonicalArguments(value)
    },
  }
})

// Counts the plain texts the guard writes, the same way: a repeat the shape walk recognises writes none.
const written = vi.hoisted(() => ({ calls: 0 }))
vi.mock('../../../engine/plain-text.ts', async (importOriginal) => {
  const plain = await importOriginal<typeof import('../../../engine/plain-text.ts')>()
  return {
    ...plain,
    plainText: (value: unknown) => {
      written.calls++
      return plain.plainText(value)
    },
  }
})

/** Canonical serialisations `run` asks for. */
function serialisationsIn(run: () => void): number {
  const before = serialised.calls
  run()
  return serialised.calls - before
}

/** Canonical serialisations and plain texts `run` asks for. */
function costOf(run: () => void): { canonical: number; plain: number } {
  const before = written.calls
  const canonical = serialisationsIn(run)
  return { canonical, plain: written.calls - before }
}

/** mulberry32: a small seeded generator, so a failing case can be replayed from its seed. */
function random(seed: number) {
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
type Random = ReturnType<typeof random>

const STRINGS = ['', 'a', 'src/index.ts', 'é', '😀', '\ud800', '\udc00', 'a\ud83db', '"quoted"', '\\', '\n\t', '\u2028', '\u0000', '{"b":1,"a":2}', '[1, 2]', 'null', '12']
const NUMBERS = [0, -0, 1, -1, 1.5, 1e21, 1e-7, NaN, Infinity, -Infinity, 2 ** 53, 5e-324, 100]
const KEYS = ['a', 'b', 'c', 'path', '__proto__', '10', '9', 'é', '😀', '\ud800', '', 'toJSON ']

/** A leaf: JSON values and what JSON leaves out or converts (functions, dates, toJSON, getters, boxed primitives). */
function leaf(rng: Random): unknown {
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
function argumentsFrom(seed: number): unknown {
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
function variant(value: unknown, rng: Random): unknown {
  const containers = containersOf(value)
  // Often the innermost: in deep arguments, that is where the depth cap falls.
  const target = containers.length > 0 ? (rng.chance(0.5) ? containers[containers.length - 1]! : rng.pick(containers)) : undefined
  switch (target === undefined ? 0 : rng.int(8)) {
    case 0:
      // The same arguments, as a string of JSON where JSON can write them.
      try {
        return JSON.stringify(value) ?? value
      } catch {
        return value
      }
    case 1: {
      // The same members in another order.
      const entries = Object.entries(target!)
      const shuffled = entries.map((entry) => [rng.int(1000), entry] as const).sort((a, b) => a[0] - b[0]).map(([, entry]) => entry)
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

describe('recognising a repeat by its plain text', () => {
  afterEach(() => {
    delete (BigInt.prototype as { toJSON?: unknown }).toJSON
  })

  it('decides every generated pair as comparing canonical forms does, and skips the serialisation when the text is the same', () => {
    let skipped = 0
    let walked = 0
    let repeats = 0
    const trials = 2000
    for (let seed = 1; seed <= trials; seed++) {
      const guard = createRepeatToolGuard()
      const agent = {}
      const observe = (args: unknown) => guard.observe({ agent, name: 'tool', arguments: args })
      // Two equal calls start a run, and the chain keeps the second one's plain text.
      observe(argumentsFrom(seed))
      const previous = argumentsFrom(seed)
      observe(previous)
      expect(guard.snapshot()[0]!.count, `seed ${seed}`).toBe(2)
      const next = variant(argumentsFrom(seed), random(seed * 7919))
      const same = canonicalArguments(next) === canonicalArguments(previous)
      const cost = costOf(() => observe(next))
      expect(guard.snapshot()[0], `seed ${seed}`).toMatchObject({ count: same ? 3 : 1, canonicalArguments: canonicalArguments(next) })
      if (same) repeats++
      if (cost.canonical === 0) skipped++
      // Neither serialised nor written: the shape walk recognised it.
      if (cost.canonical === 0 && cost.plain === 0) walked++
    }
    // Enough of both answers, and of repeats found without serialising, for the test to mean something.
    expect(repeats).toBeGreaterThan(trials / 3)
    expect(trials - repeats).toBeGreaterThan(trials / 6)
    expect(skipped).toBeGreaterThan(trials / 3)
    // And enough of those found by the walk, over the proxies, prototypes and boxes it must read right.
    expect(walked).toBeGreaterThan(trials / 10)
  }, 30_000)

  it('tells an empty object from one whose members JSON leaves out, past the depth cap', () => {
    const nested = (depth: number, inner: object) => {
      let value = inner
      for (let level = depth; level > 1; level--) value = { k: value }
      return value
    }
    for (const depth of [255, 256, 257, 258, 300]) {
      const guard = createRepeatToolGuard()
      const agent = {}
      for (const args of [nested(depth, {}), nested(depth, {}), nested(depth, { gone: undefined })]) guard.observe({ agent, name: 'tool', arguments: args })
      const same = canonicalArguments(nested(depth, {})) === canonicalArguments(nested(depth, { gone: undefined }))
      // Only where the cut falls on the innermost object itself: deeper, its parent is cut instead.
      expect(same).toBe(depth !== 257)
      expect(guard.snapshot()[0]!.count, `depth ${depth}`).toBe(same ? 3 : 1)
      // A string of the same JSON text is not taken for the object either.
      const text = JSON.stringify(nested(depth, {}))
      guard.promptSubmit(agent)
      guard.observe({ agent, name: 'tool', arguments: text })
      guard.observe({ agent, name: 'tool', arguments: text })
      guard.observe({ agent, name: 'tool', arguments: nested(depth, { gone: undefined }) })
      expect(guard.snapshot()[0]!.count, `depth ${depth}, after a string`).toBe(same ? 3 : 1)
    }
  })

  it('does not trust plain text when the page gives BigInts a toJSON', () => {
    const guard = createRepeatToolGuard()
    const agent = {}
    const observe = (args: unknown) => guard.observe({ agent, name: 'tool', arguments: args })
    ;(BigInt.prototype as { toJSON?: unknown }).toJSON = function (this: bigint) {
      return String(this)
    }
    observe({ n: 1n })
    observe({ n: 1n })
    observe({ n: '1' })
    expect(guard.snapshot()[0]!.count).toBe(1)
    observe({ n: '1' })
    delete (BigInt.prototype as { toJSON?: unknown }).toJSON
    // Kept while toJSON was there, the text of `{ n: "1" }` is no longer the text of `{ n: 1n }`.
    observe({ n: '1' })
    expect(guard.snapshot()[0]!.count).toBe(3)
  })

  it('recognises a repeat of small plain arguments by walking them, with neither the canonical form nor the plain text written', () => {
    const guard = createRepeatToolGuard()
    const agent = {}
    // New objects every call: nothing is recognised by identity.
    const args = () => ({ path: 'src', options: { depth: 2, flags: [true, null, 'x'], nested: [{ a: -0 }, { b: 1.5 }] }, empty: {} })
    const costs = Array.from({ length: 4 }, () => costOf(() => guard.observe({ agent, name: 'grep', arguments: args() })))
    // The first call of a run is serialised; the second confirms it and writes the text the shape comes from.
    expect(costs).toEqual([
      { canonical: 1, plain: 0 },
      { canonical: 1, plain: 1 },
      { canonical: 0, plain: 0 },
      { canonical: 0, plain: 0 },
    ])
    expect(guard.snapshot()[0]).toMatchObject({ count: 4, canonicalArguments: canonicalArguments(args()) })
  })

  it('compares the plain text instead of walking while Object.prototype has an enumerable key, and counts the same', () => {
    const guard = createRepeatToolGuard()
    const agent = {}
    const args = () => ({ path: 'src', flags: [1, 2] })
    const observe = () => costOf(() => guard.observe({ agent, name: 'grep', arguments: args() }))
    const inherited = Object.prototype as Record<string, unknown>
    try {
      // Kept while the key is there, the run's shape is not: the arguments do not read as it.
      inherited.polluted = 1
      expect([observe(), observe(), observe()]).toEqual([
        { canonical: 1, plain: 0 },
        { canonical: 1, plain: 1 },
        { canonical: 0, plain: 1 },
      ])
      expect(guard.snapshot()[0]!.count).toBe(3)
      delete inherited.polluted
      // A new run kept without the key has a shape; the key appearing later sends it to the text.
      guard.promptSubmit(agent)
      expect([observe(), observe(), observe()]).toEqual([
        { canonical: 1, plain: 0 },
        { canonical: 1, plain: 1 },
        { canonical: 0, plain: 0 },
      ])
      inherited.polluted = 1
      expect(observe()).toEqual({ canonical: 0, plain: 1 })
      expect(guard.snapshot()[0]!.count).toBe(4)
      // A different call is still told apart, by its text and then its canonical form.
      expect(costOf(() => guard.observe({ agent, name: 'grep', arguments: { path: 'src', flags: [1, 3] } }))).toEqual({ canonical: 1, plain: 1 })
      expect(guard.snapshot()[0]!.count).toBe(1)
      // Even one whose own keys are the run's but for the inherited one: the run's shape has it as its own.
      delete inherited.polluted
      guard.promptSubmit(agent)
      const run = () => ({ path: 'src', polluted: 1 })
      for (let i = 0; i < 3; i++) guard.observe({ agent, name: 'grep', arguments: run() })
      expect(guard.snapshot()[0]!.count).toBe(3)
      inherited.polluted = 1
      guard.observe({ agent, name: 'grep', arguments: { path: 'src' } })
      expect(guard.snapshot()[0]).toMatchObject({ count: 1, canonicalArguments: '{"path":"src"}' })
    } finally {
      delete inherited.polluted
    }
    expect(observe()).toEqual({ canonical: 1, plain: 0 })
    expect(guard.snapshot()[0]!.count).toBe(1)
  })

  it('does not count arguments changed in place between calls as a repeat: nothing is cached by identity', () => {
    const guard = createRepeatToolGuard()
    const agent = {}
    const args = { path: 'src', options: { depth: 2, tags: ['a', 'b'] } }
    const observe = () => guard.observe({ agent, name: 'grep', arguments: args })
    observe()
    observe()
    observe()
    expect(guard.snapshot()[0]!.count).toBe(3)
    // The same object, one member changed: the run ends, with the new arguments.
    args.options.depth = 3
    observe()
    expect(guard.snapshot()[0]).toMatchObject({ count: 1, canonicalArguments: '{"options":{"depth":3,"tags":["a","b"]},"path":"src"}' })
    observe()
    observe()
    expect(guard.snapshot()[0]!.count).toBe(3)
    // Deeper, and in an array: the same.
    args.options.tags[1] = 'c'
    observe()
    expect(guard.snapshot()[0]).toMatchObject({ count: 1, canonicalArguments: '{"options":{"depth":3,"tags":["a","c"]},"path":"src"}' })
    observe()
    observe()
    // A key added, then removed again: a different call, then the previous one again.
    ;(args as Record<string, unknown>).extra = true
    observe()
    expect(guard.snapshot()[0]!.count).toBe(1)
    delete (args as Record<string, unknown>).extra
    observe()
    expect(guard.snapshot()[0]).toMatchObject({ count: 1, canonicalArguments: '{"options":{"depth":3,"tags":["a","c"]},"path":"src"}' })
  })

  it('serialises a repeat only when it cannot be recognised by its text', () => {
    const guard = createRepeatToolGuard()
    const agent = {}
    const counts = (args: () => unknown) =>
      Array.from({ length: 4 }, () => serialisationsIn(() => guard.observe({ agent, name: 'write_file', arguments: args() })))
    // The first call of a run, then the second, which confirms it, then none.
    expect(counts(() => ({ path: 'a', content: 'x' }))).toEqual([1, 1, 0, 0])
    expect(counts(() => '{"path":"b"}')).toEqual([1, 1, 0, 0])
    // Reordered keys: another text, the same canonical form; the run goes on.
    const orders = [{ path: 'c', content: 'y' }, { content: 'y', path: 'c' }]
    let turn = 0
    expect(counts(() => orders[turn++ % 2])).toEqual([1, 1, 1, 1])
    expect(guard.snapshot()[0]!.count).toBe(4)
    // Past the size a chain keeps, and for what JSON cannot write, every call is serialised.
    expect(counts(() => ({ content: 'x'.repeat(1 << 20) }))).toEqual([1, 1, 1, 1])
    expect(counts(() => ({ n: 1n }))).toEqual([1, 1, 1, 1])
    expect(guard.snapshot()[0]!.count).toBe(4)
  })

  it('hands the run’s canonical arguments to listeners and reminders without serialising a repeat', () => {
    const guard = createRepeatToolGuard({ thresholds: [3, 4] })
    const events = recordEvents(guard)
    const agent = {}
    const args = () => ({ pattern: 'TODO', path: 'src' })
    const counts = Array.from({ length: 4 }, () => serialisationsIn(() => guard.observe({ agent, name: 'grep', arguments: args() })))
    expect(counts).toEqual([1, 1, 0, 0])
    expect(ofType(events, 'call').map((e) => e.canonicalArguments)).toEqual(Array(4).fill('{"path":"src","pattern":"TODO"}'))
    expect(ofType(events, 'reminder').at(-1)!.message.content[0].text).toContain('- arguments: {"path":"src","pattern":"TODO"}')
    // An untracked call is serialised for the listener only.
    guard.configure({ exclude: ['todo_write'] })
    expect(serialisationsIn(() => guard.observe({ agent, name: 'todo_write', arguments: [] }))).toBe(1)
    expect(serialisationsIn(() => guard.observe({ agent, name: 'grep', arguments: args() }))).toBe(0)
    expect(guard.snapshot()[0]!.count).toBe(5)
  })

  it('still ends a run on a result it kept when a repeat is recognised by its text after result-awareness is turned off', () => {
    const guard = createRepeatToolGuard({ resultAware: true })
    const events = recordEvents(guard)
    const agent = {}
    const call = () => guard.observe({ agent, name: 'poll', arguments: { job: 7 } }, { content: 'pending' })
    for (let i = 0; i < 3; i++) call()
    expect(guard.snapshot()[0]!.count).toBe(3)
    // The chain still holds the last result; the next call has none to compare, so the run ends
    // as it did before the config changed, even though its text is the run's.
    guard.configure({ resultAware: false })
    expect(serialisationsIn(call)).toBe(0)
    expect(guard.snapshot()[0]!.count).toBe(1)
    expect(ofType(events, 'chain-reset').map((e) => [e.reason, e.previousCount])).toEqual([['result-changed', 3]])
    // A new run: its second call confirms it, then a repeat moves the count only.
    expect([serialisationsIn(call), serialisationsIn(call)]).toEqual([1, 0])
    expect(guard.snapshot()[0]!.count).toBe(3)
    expect(ofType(events, 'chain-reset')).toHaveLength(1)
  })
})
