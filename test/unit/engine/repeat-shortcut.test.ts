// A chain recognises a repeat by walking its arguments against the shape of the run's, without
// building their canonical form. These tests check it decides every pair of calls exactly as
// comparing canonical forms does, over generated arguments, and that it does skip the canonical
// form when it can.
import { afterEach, describe, expect, it, vi } from 'vitest'
import { canonicalArguments, createRepeatToolGuard } from '../../../engine/index.ts'
import { ofType, recordEvents } from './support/events.ts'
import { argumentsFrom, random, variant } from './support/generated-arguments.ts'

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

// Counts the shapes the guard makes, the same way: a repeat that reads as the run's shape makes none.
const shaped = vi.hoisted(() => ({ calls: 0 }))
vi.mock('../../../engine/plain-shape.ts', async (importOriginal) => {
  const plain = await importOriginal<typeof import('../../../engine/plain-shape.ts')>()
  return {
    ...plain,
    shapeOf: (value: unknown) => {
      shaped.calls++
      return plain.shapeOf(value)
    },
  }
})

/** Canonical serialisations `run` asks for. */
function serialisationsIn(run: () => void): number {
  const before = serialised.calls
  run()
  return serialised.calls - before
}

/** Canonical serialisations and shapes `run` asks for. */
function costOf(run: () => void): { canonical: number; shapes: number } {
  const before = shaped.calls
  const canonical = serialisationsIn(run)
  return { canonical, shapes: shaped.calls - before }
}

describe('recognising a repeat by its shape', () => {
  afterEach(() => {
    delete (BigInt.prototype as { toJSON?: unknown }).toJSON
  })

  it('decides every generated pair as comparing canonical forms does, and skips the serialisation when the call reads as the shape', async () => {
    // The real walk, uncounted: whether the run's arguments have a shape at all.
    const { shapeOf } = await vi.importActual<typeof import('../../../engine/plain-shape.ts')>('../../../engine/plain-shape.ts')
    let repeats = 0
    let shapedRepeats = 0
    let skipped = 0
    const trials = 2000
    for (let seed = 1; seed <= trials; seed++) {
      const guard = createRepeatToolGuard()
      const agent = {}
      const observe = (args: unknown) => guard.observe({ agent, name: 'tool', arguments: args })
      // Two equal calls start a run, and the chain keeps the shape of the second one's arguments.
      observe(argumentsFrom(seed))
      const previous = argumentsFrom(seed)
      observe(previous)
      expect(guard.snapshot()[0]!.count, `seed ${seed}`).toBe(2)
      const kept = shapeOf(argumentsFrom(seed)) !== undefined
      const next = variant(argumentsFrom(seed), random(seed * 7919))
      const same = canonicalArguments(next) === canonicalArguments(previous)
      const cost = costOf(() => observe(next))
      expect(guard.snapshot()[0], `seed ${seed}`).toMatchObject({ count: same ? 3 : 1, canonicalArguments: canonicalArguments(next) })
      // What each answer cost: a different call is serialised once and keeps no shape; a repeat
      // without a shape is serialised and its shape tried again; a repeat of a run with a shape
      // costs nothing when it reads as the shape, else one serialisation and a new shape.
      if (!same) expect(cost, `seed ${seed}`).toEqual({ canonical: 1, shapes: 0 })
      else if (!kept) expect(cost, `seed ${seed}`).toEqual({ canonical: 1, shapes: 1 })
      else
        expect(
          [
            { canonical: 0, shapes: 0 },
            { canonical: 1, shapes: 1 },
          ],
          `seed ${seed}`,
        ).toContainEqual(cost)
      if (same) repeats++
      if (same && kept) shapedRepeats++
      if (cost.canonical === 0) skipped++
    }
    // Enough of both answers, and of repeats found without serialising, for the test to mean something.
    expect(repeats).toBeGreaterThan(trials / 3)
    expect(trials - repeats).toBeGreaterThan(trials / 6)
    expect(shapedRepeats).toBeGreaterThan(trials / 5)
    // Most repeats of a run with a shape read as it, over the proxies and null prototypes the walk
    // must read right; the rest are the same members read another way (another order, a member
    // JSON leaves out, a box).
    expect(skipped).toBeGreaterThan(shapedRepeats / 2)
    expect(skipped).toBeGreaterThan(trials / 8)
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

  it('does not take a BigInt for the text its toJSON gives, with or without that toJSON', () => {
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
    // Kept while toJSON was there, the shape of `{ n: "1" }` is its string, not a BigInt.
    observe({ n: '1' })
    expect(guard.snapshot()[0]!.count).toBe(3)
    observe({ n: 1n })
    expect(guard.snapshot()[0]!.count).toBe(1)
  })

  it('recognises a repeat of plain arguments by walking them, with neither a canonical form nor a shape made', () => {
    const guard = createRepeatToolGuard()
    const agent = {}
    // New objects every call: nothing is recognised by identity.
    const args = () => ({ path: 'src', options: { depth: 2, flags: [true, null, 'x'], nested: [{ a: -0 }, { b: 1.5 }] }, empty: {} })
    const costs = Array.from({ length: 4 }, () => costOf(() => guard.observe({ agent, name: 'grep', arguments: args() })))
    // The first call of a run is serialised; the second confirms it and makes the shape.
    expect(costs).toEqual([
      { canonical: 1, shapes: 0 },
      { canonical: 1, shapes: 1 },
      { canonical: 0, shapes: 0 },
      { canonical: 0, shapes: 0 },
    ])
    expect(guard.snapshot()[0]).toMatchObject({ count: 4, canonicalArguments: canonicalArguments(args()) })
  })

  it('walks arguments with optional members left undefined too, which both serialisers leave out', () => {
    const guard = createRepeatToolGuard()
    const agent = {}
    const calls = [{ path: 'src', limit: undefined }, { path: 'src' }, { limit: undefined, path: 'src' }, { path: 'src', offset: undefined }]
    const costs = calls.map((args) => costOf(() => guard.observe({ agent, name: 'read_file', arguments: args })))
    expect(costs).toEqual([
      { canonical: 1, shapes: 0 },
      { canonical: 1, shapes: 1 },
      { canonical: 0, shapes: 0 },
      { canonical: 0, shapes: 0 },
    ])
    expect(guard.snapshot()[0]).toMatchObject({ count: 4, canonicalArguments: canonicalArguments({ path: 'src' }) })
    // A member that is set is no longer left out: another call.
    guard.observe({ agent, name: 'read_file', arguments: { path: 'src', limit: 10 } })
    expect(guard.snapshot()[0]!.count).toBe(1)
  })

  it('compares canonical forms instead of walking while Object.prototype has an enumerable key, and counts the same', () => {
    const guard = createRepeatToolGuard()
    const agent = {}
    const args = () => ({ path: 'src', flags: [1, 2] })
    const observe = () => costOf(() => guard.observe({ agent, name: 'grep', arguments: args() }))
    const inherited = Object.prototype as Record<string, unknown>
    try {
      // While the key is there no shape is kept: every repeat is serialised, and tries for a shape again.
      inherited.polluted = 1
      expect([observe(), observe(), observe()]).toEqual([
        { canonical: 1, shapes: 0 },
        { canonical: 1, shapes: 1 },
        { canonical: 1, shapes: 1 },
      ])
      expect(guard.snapshot()[0]!.count).toBe(3)
      delete inherited.polluted
      // The key gone, the next repeat keeps a shape, and the one after reads as it.
      expect([observe(), observe()]).toEqual([
        { canonical: 1, shapes: 1 },
        { canonical: 0, shapes: 0 },
      ])
      expect(guard.snapshot()[0]!.count).toBe(5)
      // A new run kept without the key has a shape; the key appearing later sends repeats to the canonical form.
      guard.promptSubmit(agent)
      expect([observe(), observe(), observe()]).toEqual([
        { canonical: 1, shapes: 0 },
        { canonical: 1, shapes: 1 },
        { canonical: 0, shapes: 0 },
      ])
      inherited.polluted = 1
      expect(observe()).toEqual({ canonical: 1, shapes: 1 })
      expect(guard.snapshot()[0]!.count).toBe(4)
      // A different call is still told apart, by its canonical form.
      expect(costOf(() => guard.observe({ agent, name: 'grep', arguments: { path: 'src', flags: [1, 3] } }))).toEqual({ canonical: 1, shapes: 0 })
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
    expect(observe()).toEqual({ canonical: 1, shapes: 0 })
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

  it('serialises a repeat only when it does not read as the run’s shape', () => {
    const guard = createRepeatToolGuard()
    const agent = {}
    const counts = (args: () => unknown) => Array.from({ length: 4 }, () => serialisationsIn(() => guard.observe({ agent, name: 'write_file', arguments: args() })))
    // The first call of a run, then the second, which confirms it, then none.
    expect(counts(() => ({ path: 'a', content: 'x' }))).toEqual([1, 1, 0, 0])
    expect(counts(() => '{"path":"b"}')).toEqual([1, 1, 0, 0])
    // Reordered keys: they do not read as the shape, the canonical form is the same; the run goes
    // on, and each call's shape is made again.
    const orders = [
      { path: 'c', content: 'y' },
      { content: 'y', path: 'c' },
    ]
    let turn = 0
    expect(counts(() => orders[turn++ % 2])).toEqual([1, 1, 1, 1])
    expect(guard.snapshot()[0]!.count).toBe(4)
    // At the size a chain keeps, a repeat is walked; past it, and for what is not plain data,
    // every call is serialised.
    expect(counts(() => ({ content: 'x'.repeat(1 << 20) }))).toEqual([1, 1, 0, 0])
    expect(counts(() => ({ content: 'x'.repeat((1 << 20) + 1) }))).toEqual([1, 1, 1, 1])
    expect(counts(() => ({ n: 1n }))).toEqual([1, 1, 1, 1])
    expect(counts(() => ({ at: new Date(0) }))).toEqual([1, 1, 1, 1])
    expect(counts(() => ({ a: new Number(1) }))).toEqual([1, 1, 1, 1])
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

  it('keeps the run when result-awareness is turned off, and a repeat still reads as its shape', () => {
    const guard = createRepeatToolGuard({ resultAware: true })
    const events = recordEvents(guard)
    const agent = {}
    let status = 0
    const call = () => guard.observe({ agent, name: 'poll', arguments: { job: 7 } }, { content: `pending ${status}` })
    for (let i = 0; i < 3; i++) call()
    expect(guard.snapshot()[0]!.count).toBe(3)
    // The chain still holds the last result; the calls from now on read none, so results no
    // longer split the run (a reconfigure keeps chains), and a repeat is still recognised by its
    // shape, even with results that differ.
    guard.configure({ resultAware: false })
    const costs = [1, 2, 3].map(() => {
      status++
      return serialisationsIn(call)
    })
    expect(costs).toEqual([0, 0, 0])
    expect(guard.snapshot()[0]!.count).toBe(6)
    expect(ofType(events, 'chain-reset')).toEqual([])
  })
})

/** A plain object with the keys '0' to '10', each 0: what JSON writes for a Uint8Array(11). */
const elevenKeys = () => Object.fromEntries(Array.from({ length: 11 }, (_, i) => [String(i), 0]))

describe('boxed primitives and typed arrays, which JSON writes as the plain data they hold', () => {
  /** The count after each call of `calls`, and what each cost in canonical serialisations. */
  function run(...calls: unknown[]): { counts: number[]; serialised: number[]; last: string | undefined } {
    const guard = createRepeatToolGuard()
    const agent = {}
    const counts: number[] = []
    const costs: number[] = []
    for (const args of calls) {
      costs.push(serialisationsIn(() => guard.observe({ agent, name: 'tool', arguments: args })))
      counts.push(guard.snapshot()[0]!.count)
    }
    return { counts, serialised: costs, last: guard.snapshot()[0]!.canonicalArguments }
  }

  it('ends a run of {a: 1} on {a: new Number(1)}, and the other way round', () => {
    expect(JSON.stringify({ a: new Number(1) })).toBe(JSON.stringify({ a: 1 }))
    expect(run({ a: 1 }, { a: 1 }, { a: new Number(1) })).toEqual({ counts: [1, 2, 1], serialised: [1, 1, 1], last: '{"a":{}}' })
    expect(run({ a: new Number(1) }, { a: new Number(1) }, { a: 1 })).toEqual({ counts: [1, 2, 1], serialised: [1, 1, 1], last: '{"a":1}' })
    // A run of boxes is still counted, by its canonical form every call.
    expect(run({ a: new Number(1) }, { a: new Number(1) }, { a: new Number(1) }, { a: new Number(1) }).counts).toEqual([1, 2, 3, 4])
    // As the canonical forms decide: a box is an object of its own keys, so an empty object repeats it.
    expect(run({ a: new Number(1) }, { a: new Number(1) }, { a: {} }).counts).toEqual([1, 2, 3])
  })

  it('ends a run of false on new Boolean(false), and the other way round', () => {
    expect(run(false, false, new Boolean(false)).counts).toEqual([1, 2, 1])
    expect(run(new Boolean(false), new Boolean(false), false).counts).toEqual([1, 2, 1])
    expect(run({ a: false }, { a: false }, { a: new Boolean(false) }).counts).toEqual([1, 2, 1])
    expect(run({ a: new Boolean(false) }, { a: new Boolean(false) }, { a: false }).counts).toEqual([1, 2, 1])
  })

  it("ends a run of 'ab' on new String('ab'), and the other way round", () => {
    expect(run('ab', 'ab', new String('ab'))).toEqual({ counts: [1, 2, 1], serialised: [1, 1, 1], last: '{"0":"a","1":"b"}' })
    expect(run(new String('ab'), new String('ab'), 'ab')).toEqual({ counts: [1, 2, 1], serialised: [1, 1, 1], last: 'ab' })
    expect(run({ a: 'ab' }, { a: 'ab' }, { a: new String('ab') }).counts).toEqual([1, 2, 1])
    expect(run({ a: new String('ab') }, { a: new String('ab') }, { a: 'ab' }).counts).toEqual([1, 2, 1])
  })

  it("ends a run of {a: new Uint8Array(11)} on a plain object with the keys '0' to '10', and the other way round", () => {
    expect(JSON.stringify({ a: new Uint8Array(11) })).toBe(JSON.stringify({ a: elevenKeys() }))
    const typed = run({ a: new Uint8Array(11) }, { a: new Uint8Array(11) }, { a: elevenKeys() })
    expect(typed).toEqual({ counts: [1, 2, 1], serialised: [1, 1, 1], last: canonicalArguments({ a: elevenKeys() }) })
    const plain = run({ a: elevenKeys() }, { a: elevenKeys() }, { a: elevenKeys() }, { a: new Uint8Array(11) })
    // The plain run is walked from its third call on; the typed array does not read as its shape.
    expect(plain).toEqual({ counts: [1, 2, 3, 1], serialised: [1, 1, 0, 1], last: canonicalArguments({ a: new Uint8Array(11) }) })
    // Nor does one given a plain object's prototype and a `length` the serialiser reads.
    const disguised = Object.defineProperty(Object.setPrototypeOf(new Uint8Array(11), Object.prototype), 'length', { value: 11, enumerable: true })
    const withLength = () => ({ ...elevenKeys(), length: 11 })
    expect(run({ a: withLength() }, { a: withLength() }, { a: withLength() }, { a: disguised }).counts).toEqual([1, 2, 3, 1])
  })
})

describe('a typed array next to arguments that throw', () => {
  it('is not the same call as an object with its items as keys, as it is not without the throwing part', () => {
    const broken = () => ({
      get b(): never {
        throw new Error('b')
      },
    })
    const typed = () => ({ items: new Uint8Array(11), broken: broken() })
    const plain = () => ({ items: elevenKeys(), broken: broken() })
    const guard = createRepeatToolGuard()
    const events = recordEvents(guard)
    const agent = {}
    for (const args of [typed(), typed(), plain(), plain()]) guard.observe({ agent, name: 'tool', arguments: args })
    expect(ofType(events, 'call').map((e) => e.count)).toEqual([1, 2, 1, 2])
  })
})

describe('a result-aware repeat with the same result text', () => {
  const POLL = { id: 'job-7' }

  /** A guard with `config`, one agent, and a poll that reports `content`; the events it emitted. */
  function poller(config: Parameters<typeof createRepeatToolGuard>[0]) {
    const guard = createRepeatToolGuard(config)
    const events = recordEvents(guard)
    const agent = {}
    const poll = (result: Parameters<typeof guard.observe>[1], args: unknown = POLL) => guard.observe({ agent, name: 'poll_job', arguments: args }, result)
    return { guard, events, poll }
  }

  it('moves the count alone, and fires the same reminders at the same thresholds as without results', () => {
    const aware = poller({ resultAware: true })
    const plain = poller({})
    const awareCosts = Array.from({ length: 10 }, () => serialisationsIn(() => aware.poll({ content: 'pending' })))
    for (let i = 0; i < 10; i++) plain.poll({ content: 'pending' })
    // The arguments are serialised for the first two calls; the same text is never made canonical.
    expect(awareCosts).toEqual([1, 1, 0, 0, 0, 0, 0, 0, 0, 0])
    const reminders = (events: typeof aware.events) => ofType(events, 'reminder').map(({ count, message, level }) => ({ count, level, message }))
    expect(ofType(aware.events, 'reminder').map((e) => e.count)).toEqual([3, 5, 8])
    expect(reminders(aware.events)).toEqual(reminders(plain.events))
    expect(ofType(aware.events, 'call').map((e) => [e.count, e.result])).toEqual(Array.from({ length: 10 }, (_, i) => [i + 1, 'pending']))
    expect(ofType(aware.events, 'chain-reset')).toEqual([])
    expect(aware.guard.snapshot()[0]).toMatchObject({ count: 10, canonicalArguments: '{"id":"job-7"}', nextThreshold: null })
  })

  it('counts content that is not text as before, by its canonical form every call', () => {
    const { guard, events, poll } = poller({ resultAware: true })
    const costs = Array.from({ length: 5 }, (_, i) => serialisationsIn(() => poll({ content: i % 2 === 0 ? { b: 1, a: 2 } : { a: 2, b: 1 } })))
    // The result is serialised every call, the arguments only for the first two.
    expect(costs).toEqual([2, 2, 1, 1, 1])
    expect(ofType(events, 'call').map((e) => e.count)).toEqual([1, 2, 3, 4, 5])
    expect(ofType(events, 'reminder').map((e) => e.count)).toEqual([3, 5])
    expect(guard.snapshot()[0]!.count).toBe(5)
  })

  it('ends the run on a different text, or on the same text with another error flag', () => {
    const { guard, events, poll } = poller({ resultAware: true, thresholds: [3] })
    const fired = [1, 2, 3, 4].map(() => poll({ content: 'pending' }) !== undefined)
    expect(fired).toEqual([false, false, true, false])
    // Different text: compared by the canonical forms, which differ.
    expect(serialisationsIn(() => poll({ content: 'done' }))).toBe(2)
    expect(guard.snapshot()[0]!.count).toBe(1)
    expect([poll({ content: 'done' }), poll({ content: 'done' })].map((m) => m !== undefined)).toEqual([false, true])
    expect(guard.snapshot()[0]!.count).toBe(3)
    // The same text, now an error.
    poll({ content: 'done', isError: true })
    expect(guard.snapshot()[0]!.count).toBe(1)
    poll({ content: 'done', isError: true })
    poll({ content: 'done', isError: true })
    expect(guard.snapshot()[0]!.count).toBe(3)
    // Other arguments, the same text: a different call.
    poll({ content: 'done', isError: true }, { id: 'job-8' })
    expect(ofType(events, 'chain-reset').map((e) => [e.reason, e.previousCount])).toEqual([
      ['result-changed', 4],
      ['result-changed', 3],
      ['different-call', 3],
    ])
  })

  it('still counts a different text that reads the same once the ignored keys are removed', () => {
    const { guard, events, poll } = poller({ resultAware: true, ignoreResultKeys: ['at'] })
    for (let at = 1; at <= 5; at++) poll({ content: `{"status":"running","at":${at}}` })
    poll({ content: '{"status":"running","at":5}' })
    expect(ofType(events, 'call').map((e) => e.count)).toEqual([1, 2, 3, 4, 5, 6])
    expect(ofType(events, 'reminder').map((e) => e.count)).toEqual([3, 5])
    poll({ content: '{"status":"done","at":6}' })
    expect(guard.snapshot()[0]!.count).toBe(1)
  })

  it('counts a denied call in the run as before, and reads the next repeat as its own call, not the denied one', () => {
    const { events, poll } = poller({ resultAware: true })
    poll({ content: 'running' })
    poll({ content: 'running' })
    poll({ content: 'running' })
    poll({ denied: true, content: 'refused' })
    poll({ content: 'running' })
    poll({ content: 'running' })
    poll({ denied: true })
    poll({ denied: true })
    poll({ content: 'running' })
    poll({ content: 'done' })
    expect(ofType(events, 'call').map((e) => [e.count, e.result])).toEqual([
      [1, 'running'],
      [2, 'running'],
      [3, 'running'],
      [4, undefined],
      [5, 'running'],
      [6, 'running'],
      [7, undefined],
      [8, undefined],
      [9, 'running'],
      [1, 'done'],
    ])
    expect(ofType(events, 'reminder').map((e) => e.count)).toEqual([3, 5, 8])
    expect(ofType(events, 'chain-reset').map((e) => [e.reason, e.previousCount])).toEqual([['result-changed', 9]])
  })

  it('does not let a denied call stand for a later repeat in the cycle window', () => {
    // Two blocks of five that differ in the fourth call's result: no cycle. Had the repeat after
    // the denied call been read as the denied call, whose result matches any, they would match.
    const { events, poll } = poller({ resultAware: true, cycles: { maxPeriod: 5, repeats: 2 }, thresholds: [50] })
    const other = () => poll({ content: 'b' }, { id: 'other' })
    for (const fourth of ['v1', 'v2']) {
      poll({ content: 'v1' })
      poll({ content: 'v1' })
      poll({ denied: true })
      poll({ content: fourth })
      other()
    }
    expect(ofType(events, 'reminder')).toEqual([])
    // The same blocks with the same results: a cycle.
    for (let i = 0; i < 2; i++) {
      poll({ content: 'v1' })
      poll({ content: 'v1' })
      poll({ denied: true })
      poll({ content: 'v1' })
      other()
    }
    expect(ofType(events, 'reminder').map((e) => [e.detector, e.message.source.summary])).toEqual([['cycle', 'cycle × 2']])
  })

  it('leaves the cycle detector firing on A B A B and on blocks that hold a repeat, and not when the results change', () => {
    const cycles = { cycles: { maxPeriod: 4, repeats: 3 }, thresholds: [50] }
    const calls = (poll: ReturnType<typeof poller>['poll'], block: readonly string[], blocks: number, text: (n: number) => string) => {
      for (let n = 0; n < blocks; n++) for (const id of block) poll({ content: id === 'a' ? text(n) : 'b' }, { id })
    }
    const firedIn = (config: Parameters<typeof createRepeatToolGuard>[0], block: readonly string[], text: (n: number) => string) => {
      const { events, poll } = poller(config)
      calls(poll, block, 3, text)
      return ofType(events, 'reminder').map((e) => [e.count, e.detector, e.message.source.summary])
    }
    const same = () => 'pending'
    const changing = (n: number) => `pending ${n}`
    // A B A B A B.
    expect(firedIn({ ...cycles, resultAware: true }, ['a', 'b'], same)).toEqual([[3, 'cycle', 'cycle × 3']])
    // A A A B, three times: the third A of each block takes the short path.
    expect(firedIn({ ...cycles, resultAware: true }, ['a', 'a', 'a', 'b'], same)).toEqual([[3, 'cycle', 'cycle × 3']])
    expect(firedIn(cycles, ['a', 'a', 'a', 'b'], same)).toEqual([[3, 'cycle', 'cycle × 3']])
    // A's result changes from block to block (not within one): no cycle when results count.
    expect(firedIn({ ...cycles, resultAware: true }, ['a', 'a', 'a', 'b'], changing)).toEqual([])
    expect(firedIn({ ...cycles, resultAware: true }, ['a', 'b'], changing)).toEqual([])
    expect(firedIn(cycles, ['a', 'a', 'a', 'b'], changing)).toEqual([[3, 'cycle', 'cycle × 3']])
  })
})
