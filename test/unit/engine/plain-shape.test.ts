// The shape walk says "same" only where comparing canonical forms would: these tests check what it
// keeps, what it refuses, and that it never throws, member by member. The guard's use of it, and
// the pairs it decides, are in repeat-shortcut.test.ts.
import { afterEach, describe, expect, it } from 'vitest'
import { canonicalArguments } from '../../../engine/index.ts'
import { matchesShape, shapeOfText, type PlainShape } from '../../../engine/plain-shape.ts'

/** The shape of `value`'s JSON text, which the test expects to be kept. */
function shapeOf(value: unknown): PlainShape {
  const shape = shapeOfText(JSON.stringify(value))
  expect(shape).toBeDefined()
  return shape!
}

/** Whether `value` matches the shape of `run`'s JSON text, checked against the canonical forms first. */
function decides(run: unknown, value: unknown): boolean {
  const matched = matchesShape(value, shapeOf(run))
  // A match is exact: never "same" where the canonical forms differ.
  if (matched) expect(canonicalArguments(value)).toBe(canonicalArguments(run))
  return matched
}

const inherited = Object.prototype as Record<string, unknown>
const arrayInherited = Array.prototype as unknown as Record<string, unknown>

afterEach(() => {
  delete inherited.polluted
  delete inherited.toJSON
  delete arrayInherited.toJSON
})

describe('shapeOfText', () => {
  /** A JSON array of `objects` empty objects, padded with a string to exactly `length` characters. */
  function arrayText(objects: number, length: number): string {
    const items = Array.from({ length: objects }, () => '{}')
    const bare = `[${items.join(',')},""]`
    return `[${items.join(',')},"${'x'.repeat(length - bare.length)}"]`
  }

  it('keeps the shape of a text at both caps, 65,536 characters and 4,096 containers, and none past either', () => {
    // The outer array and 4,095 objects: 4,096 containers, in exactly 65,536 characters.
    const atCaps = arrayText(4095, 1 << 16)
    expect(atCaps).toHaveLength(65_536)
    const shape = shapeOfText(atCaps)
    expect(shape).toBeDefined()
    expect(matchesShape(JSON.parse(atCaps), shape!)).toBe(true)
    // One character more, or one container more.
    expect(shapeOfText(arrayText(4095, (1 << 16) + 1))).toBeUndefined()
    expect(shapeOfText(arrayText(4096, 1 << 16))).toBeUndefined()
    // Nested as deep as a kept text can be (plain-text.ts keeps none past 256 levels).
    const nested = '['.repeat(256) + ']'.repeat(256)
    expect(matchesShape(JSON.parse(nested), shapeOfText(nested)!)).toBe(true)
  })

  it('keeps primitives, key order and `__proto__` keys as JSON.parse reads them', () => {
    expect(shapeOfText('"a"')).toBe('a')
    expect(shapeOfText('-0')).toBe(-0)
    expect(shapeOfText('null')).toBeNull()
    expect(shapeOfText('{"b":1,"a":[true,{}],"10":2,"9":3,"__proto__":{"x":null}}')).toEqual({
      keys: ['9', '10', 'b', 'a', '__proto__'],
      values: [3, 2, 1, { keys: undefined, values: [true, { keys: [], values: [] }] }, { keys: ['x'], values: [null] }],
    })
  })

  it('throws for a text that is not JSON: it is only given what JSON.stringify wrote', () => {
    expect(() => shapeOfText('{"a":')).toThrow(SyntaxError)
  })
})

describe('matchesShape', () => {
  it('matches new arguments equal to the run’s, member by member', () => {
    const run = () => ({ path: 'src', n: 1.5, ok: false, none: null, list: [1, 'a', [{ deep: true }], {}], empty: [] })
    expect(decides(run(), run())).toBe(true)
    // The integer-like keys come first, in both.
    expect(decides({ 10: 'a', 9: 'b', c: 1 }, { c: 1, 9: 'b', 10: 'a' })).toBe(true)
    // An own `__proto__` key, as JSON.parse makes it.
    expect(decides(JSON.parse('{"__proto__":{"a":1}}'), JSON.parse('{"__proto__":{"a":1}}'))).toBe(true)
  })

  it('tells keys in another order, extra or missing keys and other values apart', () => {
    const run = { a: 1, b: [1, 2] }
    expect(decides(run, { b: [1, 2], a: 1 })).toBe(false)
    expect(decides(run, { a: 1, b: [1, 2], c: 3 })).toBe(false)
    expect(decides(run, { a: 1 })).toBe(false)
    expect(decides(run, { a: 2, b: [1, 2] })).toBe(false)
    expect(decides(run, { a: '1', b: [1, 2] })).toBe(false)
    // A member JSON leaves out is still a key the walk visits.
    expect(decides(run, { a: 1, b: [1, 2], c: undefined })).toBe(false)
  })

  it('tells an array of another length apart, and a hole or undefined from the null JSON writes', () => {
    expect(decides([1, 2], [1, 2, 3])).toBe(false)
    expect(decides([1, 2], [1])).toBe(false)
    expect(decides([], [undefined])).toBe(false)
    expect(decides([null, 1], [undefined, 1])).toBe(false)
    // eslint-disable-next-line no-sparse-arrays
    expect(decides([null, 1], [, 1])).toBe(false)
    expect(decides([null], [NaN])).toBe(false)
    expect(decides([null], [Infinity])).toBe(false)
  })

  it('matches -0 with 0, which both serialisers write as 0', () => {
    expect(canonicalArguments({ a: -0 })).toBe(canonicalArguments({ a: 0 }))
    expect(decides({ a: 0, b: [0] }, { a: -0, b: [-0] })).toBe(true)
    expect(matchesShape({ a: 0 }, shapeOfText('{"a":-0}')!)).toBe(true)
  })

  it('tells a primitive shape from an object, and an object shape from a primitive', () => {
    expect(decides(1, new Number(1))).toBe(false)
    expect(decides('a', ['a'])).toBe(false)
    expect(decides(null, {})).toBe(false)
    expect(decides({}, null)).toBe(false)
    expect(decides([], '[]')).toBe(false)
    expect(decides({ a: {} }, { a: 'x' })).toBe(false)
    // An object and an array of the same members are different calls.
    expect(decides({ 0: 'a' }, ['a'])).toBe(false)
    expect(decides(['a'], { 0: 'a' })).toBe(false)
  })

  it('refuses boxed primitives, and reads one with a plain object’s prototype as the canonical form does', () => {
    for (const box of [new Number(1), new String('ab'), new Boolean(false)]) {
      expect(decides({ a: box.valueOf() }, { a: box })).toBe(false)
      expect(decides({ a: {} }, { a: box })).toBe(false)
      expect(decides({ a: { 0: 'a', 1: 'b' } }, { a: box })).toBe(false)
    }
    // Without its prototype a box is an object of its own keys to the canonical serialiser, and
    // to the walk: `decides` checks the canonical forms agree wherever it matches.
    const plain = (box: object) => Object.setPrototypeOf(box, Object.prototype) as object
    expect(decides({ a: 1 }, { a: plain(new Number(1)) })).toBe(false)
    expect(decides({ a: false }, { a: plain(new Boolean(false)) })).toBe(false)
    expect(decides({ a: 'ab' }, { a: plain(new String('ab')) })).toBe(false)
    expect(decides({ a: {} }, { a: plain(new Number(1)) })).toBe(true)
    expect(decides({ a: { 0: 'a', 1: 'b' } }, { a: plain(new String('ab')) })).toBe(true)
  })

  it('refuses arrays with another prototype, and objects of a class, a Date or a Map', () => {
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
    expect(decides({ toJSON: 1 }, { toJSON: 1 })).toBe(false)
    Object.defineProperty(Object.prototype, 'toJSON', { value: function (this: unknown) { return this }, configurable: true, writable: true })
    expect(matchesShape({ a: 1 }, shapeOfText('{"a":1}')!)).toBe(false)
    delete inherited.toJSON
    Object.defineProperty(Array.prototype, 'toJSON', { value: function (this: unknown) { return this }, configurable: true, writable: true })
    expect(matchesShape({ a: [1] }, shapeOfText('{"a":[1]}')!)).toBe(false)
    delete arrayInherited.toJSON
    expect(matchesShape({ a: [1] }, shapeOfText('{"a":[1]}')!)).toBe(true)
  })

  it('answers false, and never throws, for a getter or proxy trap that throws', () => {
    const shape = shapeOfText('{"a":1,"b":[1]}')!
    const fails = () => {
      throw new Error('read')
    }
    expect(matchesShape(Object.defineProperty({}, 'a', { get: fails, enumerable: true }), shape)).toBe(false)
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
  })

  it('answers false while Object.prototype has an enumerable key, which for...in would visit', () => {
    const shape = shapeOfText('{"a":1}')!
    inherited.polluted = 1
    // The inherited key would be visited as if it were the run's own: neither serialiser reads it.
    expect(canonicalArguments({ a: 1 })).not.toBe(canonicalArguments({ a: 1, polluted: 1 }))
    expect(matchesShape({ a: 1 }, shapeOfText('{"a":1,"polluted":1}')!)).toBe(false)
    // The walk does not tell where it is safe: it bails out for any arguments, however plain.
    expect(matchesShape({ a: 1 }, shape)).toBe(false)
    expect(matchesShape(Object.assign(Object.create(null), { a: 1 }), shape)).toBe(false)
    delete inherited.polluted
    // A key that is not enumerable is not visited.
    Object.defineProperty(Object.prototype, 'polluted', { value: 1, enumerable: false, configurable: true })
    expect(matchesShape({ a: 1 }, shape)).toBe(true)
    delete inherited.polluted
    expect(matchesShape({ a: 1 }, shape)).toBe(true)
  })
})
