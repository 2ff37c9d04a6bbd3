// What a kept shape matches: new arguments equal to the run's, member by member, and nothing the
// canonical forms would tell apart.
import { afterEach, describe, expect, it } from 'vitest'
import { canonicalArguments } from '../../../engine/index.ts'
import { matchesShape, shapeOf } from '../../../engine/plain-shape.ts'
import { kept, decides, restorePrototypes } from './support/plain-shape-checks.ts'

afterEach(restorePrototypes)

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
})
