// The shape walk says "same" only where comparing canonical forms would: these tests check what it
// keeps, what it refuses, and that it never throws, member by member. The guard's use of it, and
// the pairs it decides, are in repeat-shortcut.test.ts.
import { afterEach, describe, expect, it } from 'vitest'
import { canonicalArguments } from '../../../engine/index.ts'
import { matchesShape, shapeOf, type PlainShape } from '../../../engine/plain-shape.ts'

/** The shape of `value`, which the test expects to be kept, and which `value` reads as. */
function kept(value: unknown): PlainShape {
  const shape = shapeOf(value)
  expect(shape).toBeDefined()
  expect(matchesShape(value, shape!)).toBe(true)
  return shape!
}

/** Whether `value` matches the shape of `run`, checked against the canonical forms first. */
function decides(run: unknown, value: unknown): boolean {
  const matched = matchesShape(value, kept(run))
  // A match is exact: never "same" where the canonical forms differ.
  if (matched) expect(canonicalArguments(value)).toBe(canonicalArguments(run))
  return matched
}

const inherited = Object.prototype as Record<string, unknown>
const arrayInherited = Array.prototype as unknown as Record<string, unknown>

afterEach(() => {
  delete inherited.polluted
  delete inherited.toJSON
  delete inherited.length
  delete arrayInherited.toJSON
})

const fails = () => {
  throw new Error('read')
}

/** `levels` arrays, each in the one before: the innermost is empty. */
function nestedArrays(levels: number): unknown[] {
  let value: unknown[] = []
  for (let level = levels; level > 1; level--) value = [value]
  return value
}

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
    Object.defineProperty(Array.prototype, 'toJSON', { value: function (this: unknown) { return this }, configurable: true, writable: true })
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
      expect(shapeOf({ a: [new Proxy([1], { [trap]: fails })] }), `${trap} of a nested array`).toSatisfy((shape) => trap === 'ownKeys' || trap === 'getOwnPropertyDescriptor' || trap === 'has' ? shape !== undefined : shape === undefined)
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

describe('matchesShape', () => {
  it('matches new arguments equal to the run’s, member by member', () => {
    const run = () => ({ path: 'src', n: 1.5, ok: false, none: null, list: [1, 'a', [{ deep: true }], {}], empty: [] })
    expect(decides(run(), run())).toBe(true)
    expect(decides('a', 'a')).toBe(true)
    expect(decides(1, 1)).toBe(true)
    expect(decides(null, null)).toBe(true)
    // The integer-like keys come first, in both.
    expect(decides({ 10: 'a', 9: 'b', c: 1 }, { c: 1, 9: 'b', 10: 'a' })).toBe(true)
    // An own `__proto__` key, as JSON.parse makes it.
    expect(decides(JSON.parse('{"__proto__":{"a":1}}'), JSON.parse('{"__proto__":{"a":1}}'))).toBe(true)
  })

  it('tells keys in another order, extra or missing keys and other values apart', () => {
    const run = { a: 1, b: [1, 2] }
    // The same canonical form, but not read as the shape: the canonical form decides instead.
    expect(canonicalArguments({ b: [1, 2], a: 1 })).toBe(canonicalArguments(run))
    expect(decides(run, { b: [1, 2], a: 1 })).toBe(false)
    expect(decides(run, { a: 1, b: [1, 2], c: 3 })).toBe(false)
    expect(decides(run, { a: 1 })).toBe(false)
    expect(decides(run, { b: [1, 2] })).toBe(false)
    expect(decides(run, { a: 1, c: [1, 2] })).toBe(false)
    expect(decides(run, { a: 2, b: [1, 2] })).toBe(false)
    expect(decides(run, { a: '1', b: [1, 2] })).toBe(false)
    expect(decides(run, { a: true, b: [1, 2] })).toBe(false)
    expect(decides(run, { a: null, b: [1, 2] })).toBe(false)
    // A function is no plain data, even where JSON would leave it out.
    expect(decides(run, { a: 1, b: [1, 2], c: () => 1 })).toBe(false)
    expect(decides({ a: 1, b: 2 }, { a: 1, b: undefined })).toBe(false)
  })

  it('leaves out an object member left undefined, as both serialisers do, but not past the depth cap', () => {
    const run = { a: 1, b: [1, 2] }
    expect(shapeOf({ a: 1, skipped: undefined, b: [1, 2] })).toEqual(shapeOf(run))
    expect(decides(run, { a: 1, b: [1, 2], c: undefined })).toBe(true)
    expect(decides(run, { u: undefined, a: 1, b: [1, 2] })).toBe(true)
    expect(decides({ a: 1, u: undefined }, { a: 1 })).toBe(true)
    expect(decides({ a: { b: undefined } }, { a: {} })).toBe(true)
    // At the cap an object with any key is written "[Object]", and one with none `{}`.
    const nested = (inner: object) => {
      let value: object = inner
      for (let level = 0; level < 256; level++) value = { k: value }
      return value
    }
    expect(canonicalArguments(nested({}))).not.toBe(canonicalArguments(nested({ gone: undefined })))
    expect(matchesShape(nested({ gone: undefined }), kept(nested({})))).toBe(false)
    expect(shapeOf(nested({ gone: undefined }))).toBeUndefined()
    // One level above the cap, the member is left out by both.
    const above = (inner: object) => {
      let value: object = inner
      for (let level = 0; level < 255; level++) value = { k: value }
      return value
    }
    expect(canonicalArguments(above({}))).toBe(canonicalArguments(above({ gone: undefined })))
    expect(decides(above({}), above({ gone: undefined }))).toBe(true)
  })

  it('tells an array of another length apart, and a hole or undefined from the null JSON writes', () => {
    expect(decides([1, 2], [1, 2, 3])).toBe(false)
    expect(decides([1, 2], [1])).toBe(false)
    expect(decides([1, 2], [2, 1])).toBe(false)
    expect(decides([], [undefined])).toBe(false)
    expect(decides([null, 1], [undefined, 1])).toBe(false)
    // biome-ignore lint/suspicious/noSparseArray: a hole is what this case is about
    expect(decides([null, 1], [, 1])).toBe(false)
    expect(decides([null, 1], Object.assign([null, 1], { extra: 1 }))).toBe(true)
  })

  it('matches -0 with 0, which both serialisers write as 0', () => {
    expect(canonicalArguments({ a: -0 })).toBe(canonicalArguments({ a: 0 }))
    expect(decides({ a: 0, b: [0] }, { a: -0, b: [-0] })).toBe(true)
    expect(decides({ a: -0 }, { a: 0 })).toBe(true)
    expect(decides(-0, 0)).toBe(true)
  })

  it('refuses NaN and the infinities, which JSON writes as null', () => {
    expect(decides([null], [NaN])).toBe(false)
    expect(decides([null], [Infinity])).toBe(false)
    expect(decides({ a: null }, { a: -Infinity })).toBe(false)
    expect(decides(null, NaN)).toBe(false)
  })

  it('tells a primitive shape from an object, and an object shape from a primitive', () => {
    expect(decides(1, new Number(1))).toBe(false)
    expect(decides('a', ['a'])).toBe(false)
    expect(decides('a', new String('a'))).toBe(false)
    expect(decides(null, {})).toBe(false)
    expect(decides({}, null)).toBe(false)
    expect(decides([], '[]')).toBe(false)
    expect(decides({}, '{}')).toBe(false)
    expect(decides({ a: {} }, { a: 'x' })).toBe(false)
    // An object and an array of the same members are different calls.
    expect(decides({ 0: 'a' }, ['a'])).toBe(false)
    expect(decides(['a'], { 0: 'a' })).toBe(false)
    expect(decides({}, [])).toBe(false)
  })

  it('refuses boxed primitives, where JSON writes the primitive and the canonical form an object', () => {
    for (const box of [new Number(1), new String('ab'), new Boolean(false)]) {
      expect(decides({ a: box.valueOf() }, { a: box })).toBe(false)
      expect(decides({ a: {} }, { a: box })).toBe(false)
      expect(decides({ a: { 0: 'a', 1: 'b' } }, { a: box })).toBe(false)
      expect(decides([box.valueOf()], [box])).toBe(false)
    }
  })

  it('reads a boxed primitive given a plain object’s prototype as the canonical form does: an object of its own keys', () => {
    const plain = (box: object) => Object.setPrototypeOf(box, Object.prototype) as object
    // What the canonical serialiser writes for one, and what JSON writes (the primitive, or what
    // the box's value reads as without its prototype's valueOf and toString).
    expect(canonicalArguments({ a: plain(new Number(1)) })).toBe('{"a":{}}')
    expect(canonicalArguments({ a: plain(new Boolean(false)) })).toBe('{"a":{}}')
    expect(canonicalArguments({ a: plain(new String('ab')) })).toBe('{"a":{"0":"a","1":"b"}}')
    expect(JSON.stringify({ a: plain(new Number(1)), b: plain(new Boolean(false)), c: plain(new String('ab')) })).toBe('{"a":null,"b":false,"c":"[object String]"}')
    // The walk keeps the shape of that object, and a match still means equal canonical forms.
    expect(shapeOf({ a: plain(new String('ab')) })).toEqual({ keys: ['a'], values: [{ keys: ['0', '1'], values: ['a', 'b'] }] })
    expect(decides({ a: 1 }, { a: plain(new Number(1)) })).toBe(false)
    expect(decides({ a: null }, { a: plain(new Number(1)) })).toBe(false)
    expect(decides({ a: false }, { a: plain(new Boolean(false)) })).toBe(false)
    expect(decides({ a: 'ab' }, { a: plain(new String('ab')) })).toBe(false)
    expect(decides({ a: '[object String]' }, { a: plain(new String('ab')) })).toBe(false)
    expect(decides({ a: {} }, { a: plain(new Number(1)) })).toBe(true)
    expect(decides({ a: { 0: 'a', 1: 'b' } }, { a: plain(new String('ab')) })).toBe(true)
    // And the other way round: the run's arguments were the boxes.
    expect(decides({ a: plain(new Number(1)) }, { a: {} })).toBe(true)
    expect(decides({ a: plain(new Number(1)) }, { a: 1 })).toBe(false)
    expect(decides({ a: plain(new String('ab')) }, { a: { 0: 'a', 1: 'b' } })).toBe(true)
    expect(decides({ a: plain(new String('ab')) }, { a: 'ab' })).toBe(false)
  })

  it('refuses arrays with another prototype, objects of a class, a Date, a Map and typed arrays', () => {
    class Items extends Array<unknown> {}
    class Point {
      x = 1
    }
    expect(decides([1, 2], Items.from([1, 2]))).toBe(false)
    expect(decides([1, 2], Object.setPrototypeOf([1, 2], Object.prototype))).toBe(false)
    expect(decides([1, 2], Object.setPrototypeOf([1, 2], null))).toBe(false)
    expect(decides({ 0: 1, 1: 2 }, Object.setPrototypeOf([1, 2], Object.prototype))).toBe(false)
    expect(decides({ 0: 1, 1: 2 }, Object.setPrototypeOf([1, 2], null))).toBe(false)
    expect(decides({ x: 1 }, new Point())).toBe(false)
    expect(decides({}, new Map())).toBe(false)
    expect(decides({}, new Date(0))).toBe(false)
    expect(decides({ 0: 0, 1: 0 }, new Uint8Array(2))).toBe(false)
    expect(decides([0, 0], new Uint8Array(2))).toBe(false)
    expect(decides({ 0: 0, 1: 0 }, Object.setPrototypeOf(new Uint8Array(2), Object.prototype))).toBe(false)
  })

  it('matches an object with no prototype, and proxies that forward to plain data', () => {
    expect(decides({ a: 1, b: { c: [] } }, Object.assign(Object.create(null), { a: 1, b: Object.assign(Object.create(null), { c: [] }) }))).toBe(true)
    expect(decides({ a: [1, { b: 2 }] }, new Proxy({ a: new Proxy([1, new Proxy({ b: 2 }, {})], {}) }, {}))).toBe(true)
    expect(decides({ a: [1, { b: 2 }] }, new Proxy({ a: [1, { b: 3 }] }, {}))).toBe(false)
  })

  it('refuses a toJSON anywhere: own, inherited, in an array or nested, even one JSON would not call', () => {
    expect(decides({ a: 1 }, { a: 1, toJSON: () => ({ a: 1 }) })).toBe(false)
    expect(decides({ a: { b: 1 } }, { a: { b: 1, toJSON: () => ({ b: 1 }) } })).toBe(false)
    expect(decides([{ b: 1 }], [{ b: 1, toJSON: () => ({ b: 1 }) }])).toBe(false)
    expect(decides({ a: 1 }, { a: 1, toJSON: 1 })).toBe(false)
    const shape = kept({ a: [1] })
    Object.defineProperty(Object.prototype, 'toJSON', { value: function (this: unknown) { return this }, configurable: true, writable: true })
    expect(matchesShape({ a: [1] }, shape)).toBe(false)
    delete inherited.toJSON
    Object.defineProperty(Array.prototype, 'toJSON', { value: function (this: unknown) { return this }, configurable: true, writable: true })
    expect(matchesShape({ a: [1] }, shape)).toBe(false)
    delete arrayInherited.toJSON
    expect(matchesShape({ a: [1] }, shape)).toBe(true)
  })

  it('answers false, and never throws, for a getter or proxy trap that throws', () => {
    const shape = kept({ a: 1, b: [1] })
    expect(matchesShape(Object.defineProperty({}, 'a', { get: fails, enumerable: true }), shape)).toBe(false)
    expect(matchesShape(Object.defineProperty({ a: 1 }, 'b', { get: fails, enumerable: true }), shape)).toBe(false)
    for (const trap of ['get', 'ownKeys', 'getOwnPropertyDescriptor', 'getPrototypeOf'] as const)
      expect(matchesShape(new Proxy({ a: 1, b: [1] }, { [trap]: fails }), shape), trap).toBe(false)
    for (const trap of ['get', 'getPrototypeOf'] as const)
      expect(matchesShape({ a: 1, b: new Proxy([1], { [trap]: fails }) }, shape), `${trap} of an array`).toBe(false)
    // An array's keys are not listed, by the walk or by either serialiser: its length and items are read.
    const unlisted = new Proxy([1], { ownKeys: fails, getOwnPropertyDescriptor: fails })
    expect(decides({ a: 1, b: [1] }, { a: 1, b: unlisted })).toBe(true)
    const { proxy, revoke } = Proxy.revocable({ a: 1, b: [1] }, {})
    revoke()
    expect(matchesShape(proxy, shape)).toBe(false)
    expect(matchesShape({ a: 1, b: proxy }, shape)).toBe(false)
  })

  it('answers false while Object.prototype has an enumerable key, which for...in would visit', () => {
    const shape = kept({ a: 1 })
    const withKey = kept({ a: 1, polluted: 1 })
    inherited.polluted = 1
    // The inherited key would be visited as if it were the run's own: neither serialiser reads it.
    expect(canonicalArguments({ a: 1 })).not.toBe(canonicalArguments({ a: 1, polluted: 1 }))
    expect(matchesShape({ a: 1 }, withKey)).toBe(false)
    // The walk does not tell where it is safe: it bails out for any arguments, however plain.
    expect(matchesShape({ a: 1 }, shape)).toBe(false)
    expect(matchesShape(Object.assign(Object.create(null), { a: 1 }), shape)).toBe(false)
    expect(matchesShape('a', 'a')).toBe(false)
    delete inherited.polluted
    // A key that is not enumerable is not visited.
    Object.defineProperty(Object.prototype, 'polluted', { value: 1, enumerable: false, configurable: true })
    expect(matchesShape({ a: 1 }, shape)).toBe(true)
    delete inherited.polluted
    expect(matchesShape({ a: 1 }, shape)).toBe(true)
  })

  it('matches arguments at each cap against a shape kept at it', () => {
    const cap = 1 << 20
    expect(decides({ content: 'x'.repeat(cap) }, { content: 'x'.repeat(cap) })).toBe(true)
    expect(decides({ content: 'x'.repeat(cap) }, { content: `${'x'.repeat(cap - 1)}y` })).toBe(false)
    expect(decides(Array.from({ length: (1 << 14) - 1 }, () => ({})), Array.from({ length: (1 << 14) - 1 }, () => ({})))).toBe(true)
    expect(decides(nestedArrays(257), nestedArrays(257))).toBe(true)
    expect(decides(nestedArrays(257), nestedArrays(258))).toBe(false)
  })
})
