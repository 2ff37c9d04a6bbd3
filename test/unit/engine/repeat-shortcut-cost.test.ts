// A chain recognises a repeat by walking its arguments against the shape of the run's, without
// building their canonical form. These tests check what each call costs: when a repeat is walked
// with neither a canonical form nor a shape made, and when it falls back to the canonical form.
import { afterEach, describe, expect, it, vi } from 'vitest'
import { canonicalArguments, createRepeatToolGuard } from '../../../engine/index.ts'
import { costOf, forgetBigIntToJSON, serialisationsIn } from './support/counted-serialisation.ts'
import { ofType, recordEvents } from './support/events.ts'

// Counts the canonical serialisations the guard asks for; the function itself is the real one.
vi.mock('../../../engine/canonical.ts', async (importOriginal) => (await import('./support/counted-serialisation.ts')).countedCanonical(importOriginal))
// Counts the shapes the guard makes, the same way: a repeat that reads as the run's shape makes none.
vi.mock('../../../engine/plain-shape.ts', async (importOriginal) => (await import('./support/counted-serialisation.ts')).countedPlainShape(importOriginal))

describe('recognising a repeat by its shape', () => {
  afterEach(forgetBigIntToJSON)

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
