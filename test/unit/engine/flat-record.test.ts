// A flat record's canonical form is written by JSON.stringify over a sorted copy instead of by the
// serialiser (engine/flat-record.ts). These tests check that the text is the serialiser's, byte
// for byte, over generated arguments and over what a page can do to the built-ins the copy relies
// on, and that the shortcut is taken where it should be.
import { afterEach, describe, expect, it, vi } from 'vitest'
import { canonicalArguments } from '../../../engine/index.ts'
import { argumentsFrom, KEYS, leaf, NUMBERS, random, STRINGS, variant, type Random } from './support/generated-arguments.ts'

// The shortcut can be switched off, so that each value's canonical form is also made by the
// serialiser alone (nested plain data's writer, engine/plain-tree-text.ts, is switched off with
// it); it counts the texts it wrote.
const shortcut = vi.hoisted(() => ({ off: false, wrote: 0 }))
vi.mock('../../../engine/plain-tree-text.ts', async (importOriginal) => {
  const tree = await importOriginal<typeof import('../../../engine/plain-tree-text.ts')>()
  return { plainTreeText: (value: object) => (shortcut.off ? undefined : tree.plainTreeText(value)) }
})
vi.mock('../../../engine/flat-record.ts', async (importOriginal) => {
  const flat = await importOriginal<typeof import('../../../engine/flat-record.ts')>()
  return {
    ...flat,
    flatRecordText: (value: object) => {
      if (shortcut.off) return undefined
      const text = flat.flatRecordText(value)
      if (text !== undefined) shortcut.wrote++
      return text
    },
  }
})

/** The canonical form the serialiser alone makes of `value`. */
function bySerialiser(value: unknown): string {
  shortcut.off = true
  try {
    return canonicalArguments(value)
  } finally {
    shortcut.off = false
  }
}

/** How many of `run`'s canonical forms the shortcut wrote. */
function written(run: () => void): number {
  const before = shortcut.wrote
  run()
  return shortcut.wrote - before
}

/** A member of a flat record, or now and then anything an argument may hold (often not flat). */
function member(rng: Random): unknown {
  if (rng.chance(0.25)) return leaf(rng)
  if (rng.chance(0.1)) return 'x'.repeat(rng.pick([127, 128, 5000]))
  return rng.chance(0.05) ? rng.pick([{ nested: 1 }, [1, 2]]) : rng.pick([...STRINGS, ...NUMBERS, true, false, null])
}

/** Keys a record may have: the generator's, integer-like ones, and ones `Object.prototype` has. */
const RECORD_KEYS = [...KEYS, 'pattern', 'maxResults', 'caseSensitive', '0', '01', '-1', '1.5', ' ', 'Z', 'z', 'constructor', 'toString', 'hasOwnProperty']

/** A record of up to 40 members, its keys in any order, some records behind a proxy or without a prototype. */
function record(rng: Random): object {
  const fields: Record<string, unknown> = rng.chance(0.1) ? Object.create(null) : {}
  for (let i = rng.int(rng.chance(0.1) ? 40 : 8); i > 0; i--) {
    const key = rng.chance(0.3) ? rng.pick(RECORD_KEYS) : `k${rng.int(60)}`
    Object.defineProperty(fields, key, { value: member(rng), enumerable: true, configurable: true, writable: true })
  }
  return rng.chance(0.05) ? new Proxy(fields, {}) : fields
}

describe('the canonical form of a flat record', () => {
  afterEach(() => {
    for (const key of ['toJSON', 'path', 'pattern']) delete (Object.prototype as Record<string, unknown>)[key]
    delete (BigInt.prototype as { toJSON?: unknown }).toJSON
  })

  it('is the serialiser’s text for every generated value, and the shortcut writes most flat records', () => {
    let flat = 0
    let total = 0
    for (let seed = 1; seed <= 3000; seed++) {
      const rng = random(seed)
      const values = [record(rng), record(rng), argumentsFrom(seed), variant(argumentsFrom(seed), random(seed * 31))]
      // Wire formats deliver arguments as JSON text, which is parsed before it is serialised.
      try {
        values.push(JSON.stringify(values[0]))
      } catch {
        // A BigInt: JSON has no text for it.
      }
      for (const value of values) {
        total++
        flat += written(() => expect(canonicalArguments(value), `seed ${seed}`).toBe(bySerialiser(value)))
      }
    }
    // Both answers, often enough for the comparison to mean something.
    expect(flat).toBeGreaterThan(total / 6)
    expect(total - flat).toBeGreaterThan(total / 5)
  }, 30_000)

  it('writes the arguments of a typical tool call, in the serialiser’s key order', () => {
    const args = { path: 'src/index.ts', pattern: 'TODO', caseSensitive: false, maxResults: 50, cursor: null, skipped: undefined }
    expect(written(() => expect(canonicalArguments(args)).toBe('{"caseSensitive":false,"cursor":null,"maxResults":50,"path":"src/index.ts","pattern":"TODO"}'))).toBe(1)
    expect(canonicalArguments(args)).toBe(bySerialiser(args))
    expect(written(() => canonicalArguments(JSON.stringify(args)))).toBe(1)
    // A tool called with no arguments: a record of no members.
    expect(written(() => expect(canonicalArguments({})).toBe('{}'))).toBe(1)
  })

  it('leaves to the serialiser what JSON.stringify would write another way', () => {
    const cases: unknown[] = [
      // Integer-like keys, which an object lists first, in numeric order.
      { b: 1, 10: 'ten', 9: 'nine', '-1': 'minus one' },
      { a: 1, '01': 2 },
      // An own `__proto__` key, which an assignment would not copy.
      JSON.parse('{"__proto__":1,"a":2}'),
      { constructor: 'c', a: 1 },
      { big: 12345678901234567890n },
      { nested: { a: 1 } },
      { date: new Date(0) },
      { toJSON: () => 'mine' },
      new Uint8Array([1, 2]),
      Object.assign(new Uint8Array([3]), { x: 1 }),
      [1, 'a', null],
    ]
    for (const value of cases) expect(written(() => expect(canonicalArguments(value)).toBe(bySerialiser(value)))).toBe(0)
  })

  it('stays the serialiser’s text when the page changes Object.prototype or replaces Array.prototype.sort', () => {
    const args = { path: 'a.ts', pattern: 'TODO', n: 1 }
    const expected = bySerialiser(args)
    // A setter would take the member instead of the copy: the record goes to the serialiser.
    let taken = 0
    Object.defineProperty(Object.prototype, 'path', { set: () => taken++, configurable: true })
    expect(written(() => expect(canonicalArguments(args)).toBe(expected))).toBe(0)
    expect(taken).toBe(0)
    delete (Object.prototype as Record<string, unknown>).path
    // A `toJSON` every object inherits: JSON.stringify and the serialiser both call it.
    ;(Object.prototype as Record<string, unknown>).toJSON = () => 'everywhere'
    expect(canonicalArguments({ a: 1 })).toBe(bySerialiser({ a: 1 }))
    delete (Object.prototype as Record<string, unknown>).toJSON
    const sort = Array.prototype.sort
    Array.prototype.sort = () => {
      throw new Error('replaced by the page')
    }
    try {
      expect(written(() => expect(canonicalArguments({ z: 1, a: 2, m: 3 })).toBe('{"a":2,"m":3,"z":1}'))).toBe(1)
    } finally {
      Array.prototype.sort = sort
    }
  })

  it('reads each member once, in the serialiser’s order, and a getter that throws leaves the serialiser’s safe text', () => {
    const read: string[] = []
    const args = {}
    for (const key of ['c', 'a', 'b']) Object.defineProperty(args, key, { get: () => (read.push(key), key), enumerable: true })
    expect(canonicalArguments(args)).toBe('{"a":"a","b":"b","c":"c"}')
    expect(read).toEqual(['a', 'b', 'c'])
    const throwing = Object.defineProperty({ a: 1 }, 'b', {
      get: () => {
        throw new Error('unreadable')
      },
      enumerable: true,
    })
    expect(canonicalArguments(throwing)).toBe(bySerialiser(throwing))
    expect(canonicalArguments(throwing)).toContain('[Thrown: unreadable]')
  })
})
