// The shape of a run's arguments: a copy of them as plain data, kept so that the next call is
// compared with it member by member, with nothing serialised. A loop of one call spends its time
// here, and a walk costs a fraction of the `JSON.stringify` a comparison of texts would need.
//
// A match is exact. Plain data is strings, finite numbers, booleans, null, and arrays and objects
// whose prototype is the original `Array.prototype`, `Object.prototype` or null, none with a
// `toJSON`: all the canonical serialiser reads of it is its members, so two calls that read as
// the same plain data (the same keys in the same order, equal strings, numbers, booleans and
// nulls, members left `undefined` left out as both serialisers leave them out) have the same
// canonical form. Anything else (a Date, a boxed primitive, a typed array, a function, a getter
// that throws, `NaN`) has no shape and matches none: such calls are compared by their canonical
// form, as the first call of a run is.
import { getPrototypeOf, isArray, isArrayBufferView, isFiniteNumber } from './intrinsics.ts'
import { MAX_DEPTH } from './stringifiers.ts'

/** Arguments as plain data; an array's shape has no keys. */
export type PlainShape = string | number | boolean | null | ShapedContainer
interface ShapedContainer {
  readonly keys: readonly string[] | undefined
  readonly values: readonly PlainShape[]
}

const objectPrototype: unknown = Object.prototype
const arrayPrototype: unknown = Array.prototype

/**
 * What a chain keeps, at most: a shape holds the arguments' strings (shared with them, not
 * copied) and one small record per object or array. Larger arguments are compared by their
 * canonical form, as a different call is.
 */
const MAX_CHARS = 1 << 20
const MAX_CONTAINERS = 1 << 14

/** What a copy that met something other than plain data gives back, up to `shapeOf`. */
const NONE: unique symbol = Symbol('not plain data')

/**
 * The shape of `value`, or undefined when it is not plain data or too large to keep. Answered
 * without throwing: a run of arguments that are not plain data asks again on every call.
 */
export function shapeOf(value: unknown): PlainShape | undefined {
  let chars = 0
  let containers = 0
  const copy = (member: unknown, depth: number): PlainShape | typeof NONE => {
    if (typeof member === 'string') return (chars += member.length) > MAX_CHARS ? NONE : member
    if (typeof member === 'boolean' || member === null || (typeof member === 'number' && isFiniteNumber(member))) return member
    if (typeof member !== 'object' || ++containers > MAX_CONTAINERS || depth > MAX_DEPTH || !isPlainContainer(member)) return NONE
    const values: PlainShape[] = []
    if (isArray(member)) {
      for (let i = 0; i < member.length; i++) {
        const item = copy(member[i], depth + 1)
        if (item === NONE) return NONE
        values[i] = item
      }
      return { keys: undefined, values }
    }
    const keys: string[] = []
    for (const key in member) {
      const item = (member as Record<string, unknown>)[key]
      if (leftOut(item, depth)) continue
      const copied = copy(item, depth + 1)
      if (copied === NONE) return NONE
      keys[keys.length] = key
      values[values.length] = copied
    }
    return { keys, values }
  }
  try {
    const shape = inheritsNoEnumerableKey() ? copy(value, 0) : NONE
    return shape === NONE ? undefined : shape
  } catch {
    // A getter or proxy trap threw: the canonical form decides.
    return undefined
  }
}

/**
 * An object's member that both serialisers leave out, as JSON does: one that is `undefined`
 * (common in arguments built with optional fields). Not past the depth cap, where the canonical
 * form writes an object with any key at all as `"[Object]"` and one with none as `{}`.
 */
const leftOut = (member: unknown, depth: number): boolean => member === undefined && depth < MAX_DEPTH

/** Whether `value` reads as plain data equal to `shape`, member by member and in the same order. */
export function matchesShape(value: unknown, shape: PlainShape): boolean {
  try {
    return inheritsNoEnumerableKey() && matchesMember(value, shape, 0)
  } catch {
    // A getter or proxy trap threw: the canonical form decides.
    return false
  }
}

// An object of the page's `Object.prototype`, made when this module loads: the page can change
// that prototype, never this object.
const probe = {}

/**
 * Whether `Object.prototype` has no enumerable key, which `for...in` would visit after an object's
 * own. With none, `for...in` over plain data visits exactly the keys `Object.keys` lists (what the
 * canonical serialiser reads), in the same order, and builds no array to list them in.
 */
function inheritsNoEnumerableKey(): boolean {
  for (const _ in probe) return false
  return true
}

/**
 * An array or object as plain data: its prototype the original one (or none), no `toJSON`, and
 * not a typed array (or DataView) given a plain object's prototype: the canonical serialiser knows
 * one by its internal slot, and writes its items in index order where it sorts an object's keys.
 */
function isPlainContainer(value: object): boolean {
  if ((value as { toJSON?: unknown }).toJSON !== undefined) return false
  const prototype = getPrototypeOf(value)
  if (isArray(value)) return prototype === arrayPrototype
  return (prototype === objectPrototype || prototype === null) && !isArrayBufferView(value)
}

/**
 * A member at `depth` (0: the arguments themselves). A string, number, boolean or null reads as
 * the shape's exactly when it is the same value (0 and -0 are: both serialisers write them as `0`).
 */
const matchesMember = (value: unknown, shape: PlainShape, depth: number): boolean => (typeof shape === 'object' && shape !== null ? matches(value, shape, depth) : value === shape)

function matches(value: unknown, shape: ShapedContainer, depth: number): boolean {
  if (typeof value !== 'object' || value === null || !isPlainContainer(value)) return false
  const { keys, values } = shape
  if (keys === undefined) {
    if (!isArray(value) || value.length !== values.length) return false
    for (let i = 0; i < values.length; i++) if (!matchesMember(value[i], values[i]!, depth + 1)) return false
    return true
  }
  if (isArray(value)) return false
  let i = 0
  for (const name in value) {
    const member = (value as Record<string, unknown>)[name]
    if (leftOut(member, depth)) continue
    if (i === keys.length || name !== keys[i] || !matchesMember(member, values[i]!, depth + 1)) return false
    i++
  }
  return i === keys.length
}
