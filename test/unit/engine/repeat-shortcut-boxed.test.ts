// Boxed primitives and typed arrays are written by JSON as the plain data they hold, yet are not
// the same call as that data: a repeat walked against the run's shape tells them apart as
// comparing canonical forms does.
import { describe, expect, it, vi } from 'vitest'
import { canonicalArguments, createRepeatToolGuard } from '../../../engine/index.ts'
import { serialisationsIn } from './support/counted-serialisation.ts'
import { ofType, recordEvents } from './support/events.ts'

// Counts the canonical serialisations the guard asks for; the function itself is the real one.
vi.mock('../../../engine/canonical.ts', async (importOriginal) => (await import('./support/counted-serialisation.ts')).countedCanonical(importOriginal))

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
