// What a kept shape refuses to match, and that matching never throws: boxed primitives, classes,
// toJSON, throwing getters and traps, a polluted Object.prototype, and the caps.
import { afterEach, describe, expect, it } from 'vitest'
import { canonicalArguments } from '../../../engine/index.ts'
import { matchesShape, shapeOf } from '../../../engine/plain-shape.ts'
import { kept, decides, inherited, arrayInherited, fails, nestedArrays, restorePrototypes } from './support/plain-shape-checks.ts'

afterEach(restorePrototypes)

describe('matchesShape', () => {
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
    Object.defineProperty(Object.prototype, 'toJSON', {
      value: function (this: unknown) {
        return this
      },
      configurable: true,
      writable: true,
    })
    expect(matchesShape({ a: [1] }, shape)).toBe(false)
    delete inherited.toJSON
    Object.defineProperty(Array.prototype, 'toJSON', {
      value: function (this: unknown) {
        return this
      },
      configurable: true,
      writable: true,
    })
    expect(matchesShape({ a: [1] }, shape)).toBe(false)
    delete arrayInherited.toJSON
    expect(matchesShape({ a: [1] }, shape)).toBe(true)
  })

  it('answers false, and never throws, for a getter or proxy trap that throws', () => {
    const shape = kept({ a: 1, b: [1] })
    expect(matchesShape(Object.defineProperty({}, 'a', { get: fails, enumerable: true }), shape)).toBe(false)
    expect(matchesShape(Object.defineProperty({ a: 1 }, 'b', { get: fails, enumerable: true }), shape)).toBe(false)
    for (const trap of ['get', 'ownKeys', 'getOwnPropertyDescriptor', 'getPrototypeOf'] as const) expect(matchesShape(new Proxy({ a: 1, b: [1] }, { [trap]: fails }), shape), trap).toBe(false)
    for (const trap of ['get', 'getPrototypeOf'] as const) expect(matchesShape({ a: 1, b: new Proxy([1], { [trap]: fails }) }, shape), `${trap} of an array`).toBe(false)
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
    expect(
      decides(
        Array.from({ length: (1 << 14) - 1 }, () => ({})),
        Array.from({ length: (1 << 14) - 1 }, () => ({})),
      ),
    ).toBe(true)
    expect(decides(nestedArrays(257), nestedArrays(257))).toBe(true)
    expect(decides(nestedArrays(257), nestedArrays(258))).toBe(false)
  })
})
