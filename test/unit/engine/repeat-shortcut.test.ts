// A chain recognises a repeat by walking its arguments against the shape of the run's, without
// building their canonical form. These tests check it decides every pair of calls exactly as
// comparing canonical forms does, over generated arguments and at the edges of what JSON writes,
// and that it does skip the canonical form when it can.
import { afterEach, describe, expect, it, vi } from 'vitest'
import { canonicalArguments, createRepeatToolGuard } from '../../../engine/index.ts'
import { costOf, forgetBigIntToJSON } from './support/counted-serialisation.ts'
import { argumentsFrom, random, variant } from './support/generated-arguments.ts'

// Counts the canonical serialisations the guard asks for; the function itself is the real one.
vi.mock('../../../engine/canonical.ts', async (importOriginal) => (await import('./support/counted-serialisation.ts')).countedCanonical(importOriginal))
// Counts the shapes the guard makes, the same way: a repeat that reads as the run's shape makes none.
vi.mock('../../../engine/plain-shape.ts', async (importOriginal) => (await import('./support/counted-serialisation.ts')).countedPlainShape(importOriginal))

describe('recognising a repeat by its shape', () => {
  afterEach(forgetBigIntToJSON)

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
})
