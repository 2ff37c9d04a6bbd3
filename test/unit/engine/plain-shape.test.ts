// The shape walk says "same" only where comparing canonical forms would: these tests check what it
// keeps, what it refuses, and that it never throws, member by member. What a shape matches is in
// plain-shape-match.test.ts and plain-shape-refuse.test.ts; the guard's use of it, and the pairs it
// decides, are in repeat-shortcut.test.ts.
import { afterEach, describe, expect, it } from 'vitest'
import { canonicalArguments } from '../../../engine/index.ts'
import { matchesShape, shapeOf } from '../../../engine/plain-shape.ts'
import { kept, decides, inherited, arrayInherited, fails, nestedArrays, restorePrototypes } from './support/plain-shape-checks.ts'

afterEach(restorePrototypes)

describe('shapeOf', () => {
  it('keeps a string or another primitive as itself, and containers as their keys and values', () => {
    expect(shapeOf('a')).toBe('a')
    expect(shapeOf('{"a":1}')).toBe('{"a":1}')
    expect(shapeOf(1.5)).toBe(1.5)
    expect(shapeOf(-0)).toBe(-0)
    expect(shapeOf(false)).toBe(false)
    expect(shapeOf(null)).toBeNull()
    expect(shapeOf([])).toEqual({ keys: undefined, values: [] })
    expect(shapeOf({})).toEqual({ keys: [], values: [] })
  })

  it('keeps keys in the order the canonical serialiser lists them, and own `__proto__` keys', () => {
    expect(shapeOf({ b: 1, a: [true, {}], 10: 2, 9: 3 })).toEqual({
      keys: ['9', '10', 'b', 'a'],
      values: [3, 2, 1, { keys: undefined, values: [true, { keys: [], values: [] }] }],
    })
    expect(shapeOf(JSON.parse('{"__proto__":{"x":null}}'))).toEqual({ keys: ['__proto__'], values: [{ keys: ['x'], values: [null] }] })
    // A getter that does not throw is read, as the canonical serialiser reads it.
    expect(shapeOf(Object.defineProperty({}, 'a', { get: () => 1, enumerable: true }))).toEqual({ keys: ['a'], values: [1] })
    // A key that is not enumerable is not visited, by the walk or by the serialiser.
    expect(shapeOf(Object.defineProperty({ a: 1 }, 'hidden', { value: 2, enumerable: false }))).toEqual({ keys: ['a'], values: [1] })
  })

  it('keeps an object with no prototype, and proxies that forward to plain data', () => {
    expect(shapeOf(Object.assign(Object.create(null), { a: 1 }))).toEqual({ keys: ['a'], values: [1] })
    expect(shapeOf(new Proxy({ a: new Proxy([1], {}) }, {}))).toEqual({ keys: ['a'], values: [{ keys: undefined, values: [1] }] })
  })

  it('refuses what is not plain data, anywhere in the arguments', () => {
    class Point {
      x = 1
    }
    class Items extends Array<unknown> {}
    const refused: [string, unknown][] = [
      ['undefined', undefined],
      ['a function', () => 1],
      ['a symbol', Symbol('s')],
      ['a bigint', 1n],
      ['NaN', NaN],
      ['Infinity', Infinity],
      ['-Infinity', -Infinity],
      ['a Date', new Date(0)],
      ['a boxed number', new Number(1)],
      ['a boxed string', new String('ab')],
      ['a boxed boolean', new Boolean(false)],
      ['a typed array', new Uint8Array(11)],
      ['an empty typed array', new Float64Array(0)],
      ['a DataView', new DataView(new ArrayBuffer(2))],
      ['a Map', new Map()],
      ['a RegExp', /a/],
      ['an instance of a class', new Point()],
      ['an array of a subclass', Items.from([1])],
      ['an array with a plain object’s prototype', Object.setPrototypeOf([1], Object.prototype)],
      ['an array with no prototype', Object.setPrototypeOf([1], null)],
      ['an own toJSON', { a: 1, toJSON: () => ({ a: 1 }) }],
      ['a toJSON that is not a function', { toJSON: 1 }],
      ['a getter that throws', Object.defineProperty({}, 'a', { get: fails, enumerable: true })],
    ]
    for (const [what, value] of refused) {
      expect(shapeOf(value), what).toBeUndefined()
      // An object's member left undefined is left out, as both serialisers leave it out (below).
      if (value !== undefined) expect(shapeOf({ a: [{ b: value }] }), `${what}, nested`).toBeUndefined()
      expect(shapeOf([1, value]), `${what}, in an array`).toBeUndefined()
    }
    // A hole reads as undefined, which JSON writes as null: not plain data either.
    // biome-ignore lint/suspicious/noSparseArray: a hole is what this case is about
    expect(shapeOf([, 1])).toBeUndefined()
  })

  it('refuses a typed array given a plain object’s prototype: the serialiser still writes its items unsorted', () => {
    // With a `length` it can read, the canonical serialiser writes a typed array's items in index
    // order, whatever its prototype; a plain object with the same keys has them sorted as text.
    const typed = Object.defineProperty(Object.setPrototypeOf(new Uint8Array(11), Object.prototype), 'length', { value: 11, enumerable: true })
    const plain: Record<string, number> = {}
    for (let i = 0; i < 11; i++) plain[i] = 0
    plain.length = 11
    expect(canonicalArguments(typed)).not.toBe(canonicalArguments(plain))
    expect(shapeOf(typed)).toBeUndefined()
    expect(decides(plain, typed)).toBe(false)
    // With no prototype, or with a `length` inherited from Object.prototype, the same.
    const bare = Object.setPrototypeOf(new Uint8Array(11), null)
    expect(shapeOf(bare)).toBeUndefined()
    expect(shapeOf(Object.setPrototypeOf(new Uint8Array(11), Object.prototype))).toBeUndefined()
    Object.defineProperty(Object.prototype, 'length', { value: 11, configurable: true, writable: true })
    const plainKeys = { ...plain }
    delete plainKeys.length
    expect(canonicalArguments(Object.setPrototypeOf(new Uint8Array(11), Object.prototype))).not.toBe(canonicalArguments(plainKeys))
    expect(matchesShape(Object.setPrototypeOf(new Uint8Array(11), Object.prototype), shapeOf(plainKeys)!)).toBe(false)
  })

  it('refuses a toJSON inherited from Object.prototype or Array.prototype, even one JSON would not call', () => {
    Object.defineProperty(Object.prototype, 'toJSON', { value: 1, configurable: true, writable: true })
    expect(shapeOf({ a: 1 })).toBeUndefined()
    delete inherited.toJSON
    Object.defineProperty(Array.prototype, 'toJSON', {
      value: function (this: unknown) {
        return this
      },
      configurable: true,
      writable: true,
    })
    expect(shapeOf({ a: [1] })).toBeUndefined()
    expect(shapeOf({ a: 1 })).toBeDefined()
    delete arrayInherited.toJSON
    expect(shapeOf({ a: [1] })).toBeDefined()
  })

  it('keeps 1,048,576 string characters in all, and refuses one more', () => {
    const cap = 1 << 20
    expect(cap).toBe(1_048_576)
    kept('x'.repeat(cap))
    expect(shapeOf('x'.repeat(cap + 1))).toBeUndefined()
    kept({ content: 'x'.repeat(cap) })
    expect(shapeOf({ content: 'x'.repeat(cap + 1) })).toBeUndefined()
    // In all: the strings add up, wherever they are; keys do not count.
    const half = 'x'.repeat(cap / 2)
    kept({ a: half, b: [half], c: '' })
    expect(shapeOf({ a: half, b: [half], c: 'x' })).toBeUndefined()
    // The same string twice counts twice.
    expect(shapeOf([half, `${half}x`])).toBeUndefined()
    expect(shapeOf({ ['k'.repeat(cap)]: half, b: half })).toBeDefined()
  })

  it('keeps 16,384 containers, the arguments’ own among them, and refuses one more', () => {
    const cap = 1 << 14
    expect(cap).toBe(16_384)
    // The outer array and 16,383 objects.
    const atCap = () => Array.from({ length: cap - 1 }, () => ({}))
    kept(atCap())
    expect(shapeOf([...atCap(), {}])).toBeUndefined()
    expect(shapeOf([...atCap(), []])).toBeUndefined()
    // Objects and arrays alike, at any depth.
    kept({ a: Array.from({ length: cap - 3 }, () => []), b: {} })
    expect(shapeOf({ a: Array.from({ length: cap - 3 }, () => []), b: { c: {} } })).toBeUndefined()
    // One object reached twice counts twice.
    const shared = { x: 1 }
    expect(shapeOf(Array.from({ length: cap }, () => shared))).toBeUndefined()
    expect(shapeOf(Array.from({ length: cap - 1 }, () => shared))).toBeDefined()
  })

  it('keeps containers 256 levels below the arguments, the canonical serialiser’s depth cap, and refuses one deeper', () => {
    // The arguments themselves are at level 0: 257 nested arrays reach level 256.
    kept(nestedArrays(257))
    expect(shapeOf(nestedArrays(258))).toBeUndefined()
    // A primitive below the deepest container is still kept.
    const deepest = nestedArrays(257)
    let inner = deepest
    while (inner.length > 0) inner = inner[0] as unknown[]
    inner.push('leaf', 1, null)
    kept(deepest)
    // A cycle is as deep as it is walked: refused, never an endless walk.
    const cyclic: Record<string, unknown> = { a: 1 }
    cyclic.self = cyclic
    expect(shapeOf(cyclic)).toBeUndefined()
  })

  it('answers undefined, and never throws, for a getter or proxy trap that throws', () => {
    expect(shapeOf(Object.defineProperty({ a: 1 }, 'b', { get: fails, enumerable: true }))).toBeUndefined()
    for (const trap of ['get', 'ownKeys', 'getOwnPropertyDescriptor', 'getPrototypeOf', 'has'] as const) {
      const proxy = new Proxy({ a: 1, b: [1] }, { [trap]: fails })
      // Only the traps the walk reaches matter; none throws out of it.
      expect(() => shapeOf(proxy), trap).not.toThrow()
      if (trap !== 'has') expect(shapeOf(proxy), trap).toBeUndefined()
      expect(shapeOf({ a: [new Proxy([1], { [trap]: fails })] }), `${trap} of a nested array`).toSatisfy((shape) =>
        trap === 'ownKeys' || trap === 'getOwnPropertyDescriptor' || trap === 'has' ? shape !== undefined : shape === undefined,
      )
    }
    const { proxy, revoke } = Proxy.revocable({ a: 1 }, {})
    revoke()
    expect(shapeOf(proxy)).toBeUndefined()
    expect(shapeOf({ a: [proxy] })).toBeUndefined()
  })

  it('answers undefined while Object.prototype has an enumerable key, which for...in would visit', () => {
    inherited.polluted = 1
    expect(shapeOf({ a: 1 })).toBeUndefined()
    // Whatever the arguments: the walk does not tell where it would be safe.
    expect(shapeOf(Object.assign(Object.create(null), { a: 1 }))).toBeUndefined()
    expect(shapeOf([1])).toBeUndefined()
    expect(shapeOf('a')).toBeUndefined()
    delete inherited.polluted
    // A key that is not enumerable is not visited.
    Object.defineProperty(Object.prototype, 'polluted', { value: 1, enumerable: false, configurable: true })
    expect(shapeOf({ a: 1 })).toEqual({ keys: ['a'], values: [1] })
  })
})
