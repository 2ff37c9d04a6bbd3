// Nested plain data gets its canonical form from JSON.stringify over a copy instead of from the
// serialiser (engine/plain-tree-text.ts). These tests check that whatever text the copy gives is
// the serialiser's, byte for byte, over generated arguments, that the copy is made for the data
// agents send, and that everything it cannot hold is left to the serialiser.
import { afterEach, describe, expect, it } from 'vitest'
import { canonicalArgumentsAfter } from '../../../engine/canonical.ts'
import { canonicalArguments, createRepeatToolGuard } from '../../../engine/index.ts'
import { plainTreeText } from '../../../engine/plain-tree-text.ts'
import { stringify } from '../../../engine/stringifiers.ts'
import { argumentsFrom, random, variant } from './support/generated-arguments.ts'

/** A thrown error as a value, so both writers' answers compare as texts. */
function outcome(write: () => string | undefined): string | undefined {
  try {
    return write()
  } catch (error) {
    return `threw ${(error as Error).name}`
  }
}

/** A record nested `levels` deep, its innermost member `leaf`. */
function nested(levels: number, leaf: unknown): object {
  let value: object = { leaf }
  for (let level = 0; level < levels; level++) value = { inner: value }
  return value
}

describe('the canonical form of nested plain data', () => {
  afterEach(() => {
    delete (Object.prototype as { toJSON?: unknown }).toJSON
    delete (Array.prototype as { toJSON?: unknown }).toJSON
  })

  it('is the serialiser’s text for every generated value it writes, and it writes many', () => {
    let written = 0
    let left = 0
    for (let seed = 1; seed <= 3000; seed++) {
      const values = [argumentsFrom(seed), variant(argumentsFrom(seed), random(seed * 31))]
      for (const value of values) {
        if (typeof value !== 'object' || value === null) continue
        const text = outcome(() => plainTreeText(value))
        if (text === undefined) {
          left++
          continue
        }
        written++
        expect(text, `seed ${seed}`).toBe(outcome(() => stringify(value)))
      }
    }
    // Both answers, often enough for the comparison to mean something.
    expect(written).toBeGreaterThan(1000)
    expect(left).toBeGreaterThan(1000)
  }, 30_000)

  it('writes the nested arguments agents send, in the serialiser’s key order', () => {
    const args = { query: 'auth config', options: { limit: 10, fields: ['title', undefined, () => 1], cursor: null, skipped: undefined }, filters: [{ b: 2, a: 1 }, [true, 1.5]] }
    const text = '{"filters":[{"a":1,"b":2},[true,1.5]],"options":{"cursor":null,"fields":["title",null,null],"limit":10},"query":"auth config"}'
    expect(plainTreeText(args)).toBe(text)
    expect(stringify(args)).toBe(text)
    expect(plainTreeText([{ z: 1, a: [] }, {}])).toBe('[{"a":[],"z":1},{}]')
    // The JSON text a wire format sends is parsed, then written the same way.
    expect(canonicalArguments(JSON.stringify(args))).toBe('{"filters":[{"a":1,"b":2},[true,1.5]],"options":{"cursor":null,"fields":["title",null,null],"limit":10},"query":"auth config"}')
  })

  it('is written for arguments whose text is likely long: after a long one of the same tool, or JSON text of 8 KB', () => {
    // Only the serialiser calls the page's Object.keys: while it throws, what the copy writes succeeds.
    const args = { rows: [{ id: 1, tags: ['a'] }] }
    const text = JSON.stringify({ rows: Array.from({ length: 1_000 }, (_, id) => ({ id, tags: ['a'] })) })
    const keys = Object.keys
    Object.keys = () => {
      throw new Error('replaced by the page')
    }
    try {
      expect(canonicalArgumentsAfter(args, 'x'.repeat(8_192))).toBe('{"rows":[{"id":1,"tags":["a"]}]}')
      expect(text.length).toBeGreaterThan(8_192)
      expect(canonicalArguments(text)).toBe(text)
      expect(() => canonicalArgumentsAfter(args, 'x'.repeat(8_191))).toThrow()
      expect(() => canonicalArgumentsAfter(args, undefined)).toThrow()
      expect(() => canonicalArguments(JSON.stringify(args))).toThrow()
    } finally {
      Object.keys = keys
    }
  })

  it('is written for a call whose run’s text was long, as the guard reads its arguments', () => {
    const guard = createRepeatToolGuard()
    const agent = {}
    const rows = (n: number) => ({ rows: Array.from({ length: 1_000 }, (_, id) => ({ id, tags: ['a'], n })) })
    guard.observe({ agent, name: 'write_rows', arguments: rows(1) })
    const keys = Object.keys
    Object.keys = () => {
      throw new Error('replaced by the page')
    }
    try {
      // A different call of the same tool: its text is written, not compared by shape.
      guard.observe({ agent, name: 'write_rows', arguments: rows(2) })
      guard.observe({ agent, name: 'write_rows', arguments: rows(2) })
    } finally {
      Object.keys = keys
    }
    expect(guard.snapshot()[0]).toMatchObject({ tool: 'write_rows', count: 2 })
  })

  it('leaves to the serialiser what JSON.stringify over a copy would write another way', () => {
    const cycle: Record<string, unknown> = { a: 1 }
    cycle.self = { back: cycle }
    const cases: object[] = [
      { a: { big: 12345678901234567890n } },
      { a: [1, 2n] },
      { a: [new Date(0)] },
      { a: { toJSON: () => 'mine' } },
      { a: new Uint8Array([1, 2]) },
      { a: new Float32Array(0) },
      { a: { b: 1, 10: 'ten', 9: 'nine' } },
      { a: JSON.parse('{"__proto__":1,"b":2}') as object },
      { a: { constructor: 'c' } },
      { a: Object.fromEntries(Array.from({ length: 33 }, (_, i) => [`k${i}`, i])) },
      nested(65, 'deep'),
      cycle,
    ]
    for (const value of cases) {
      expect(plainTreeText(value)).toBeUndefined()
      expect(canonicalArguments(value)).toBe(stringify(value))
    }
    // Just within the bounds, the copy is written.
    expect(plainTreeText(nested(63, 'deep'))).toBe(stringify(nested(63, 'deep')))
    expect(plainTreeText({ a: Object.fromEntries(Array.from({ length: 32 }, (_, i) => [`k${i}`, i])) })).toBeDefined()
  })

  it('leaves to the serialiser an array whose length no array has, and arrays the page took an index of', () => {
    for (const length of [undefined, -1, null, 1.5, '2']) {
      const odd = new Proxy([1, 2], { get: (target, key) => (key === 'length' ? length : Reflect.get(target, key)) })
      expect(plainTreeText({ a: odd })).toBeUndefined()
    }
    // A setter on an index would take the copy's item, and its getter give JSON.stringify another.
    Object.defineProperty(Array.prototype, '1', { get: () => 'P', set: () => undefined, configurable: true })
    try {
      expect(plainTreeText({ a: [1, 2] })).toBeUndefined()
      expect(canonicalArgumentsAfter({ a: [1, 2] }, 'x'.repeat(8_192))).toBe(stringify({ a: [1, 2] }))
    } finally {
      delete (Array.prototype as unknown as Record<string, unknown>)[1]
    }
  })

  it('leaves everything to the serialiser while the page gives Object.prototype or Array.prototype a toJSON', () => {
    const args = { a: { b: [1, 2] } }
    ;(Object.prototype as { toJSON?: unknown }).toJSON = () => 'everywhere'
    expect(plainTreeText(args)).toBeUndefined()
    expect(canonicalArguments(args)).toBe(stringify(args))
    // Records without a prototype have no toJSON to find, but a copy would inherit the page's.
    const bare = Object.assign(Object.create(null) as object, { a: Object.assign(Object.create(null) as object, { b: 1 }) })
    expect(plainTreeText(bare)).toBeUndefined()
    expect(canonicalArguments(bare)).toBe('{"a":{"b":1}}')
    delete (Object.prototype as { toJSON?: unknown }).toJSON
    ;(Array.prototype as { toJSON?: unknown }).toJSON = () => 'every array'
    expect(plainTreeText(args)).toBeUndefined()
    expect(canonicalArguments(args)).toBe(stringify(args))
    // An array without a prototype has no toJSON to find, but a copy would inherit the page's.
    const bareList = { a: Object.setPrototypeOf([1, 2], null) as unknown[] }
    expect(plainTreeText(bareList)).toBeUndefined()
    expect(canonicalArguments(bareList)).toBe('{"a":[1,2]}')
  })
})
