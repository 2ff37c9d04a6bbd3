// The shape of a run's arguments: the value its kept plain text parses to, kept so that the next
// call is compared with it member by member, with nothing serialised. Comparing the plain text
// costs a `JSON.stringify` and a comparison with the kept text; walking small arguments costs a
// fraction of that, which is what a loop of one small call spends its time on.
//
// A match is exact: the arguments read, member by member, as the shape does (the same keys in the
// same order, equal strings, numbers, booleans and nulls), which is all either serialiser reads
// of plain data, so both would write what they wrote for the shape. The walk takes plain data
// only: strings, finite numbers, booleans, null, arrays and objects whose prototype is the
// original `Array.prototype`, `Object.prototype` or null, none with a `toJSON`. Anything else (a
// Date, a boxed primitive, a member JSON leaves out, a getter that throws) is no match, and the
// plain text decides as before. A chain keeps a shape only for arguments that match their own
// (chain.ts), so the run's canonical form is the shape's.
import { getPrototypeOf, isArray, jsonParse, mapped, objectKeys } from './intrinsics.ts'

/** A JSON value as the walk reads it; an array's shape has no keys. */
export type PlainShape = string | number | boolean | null | ShapedContainer
interface ShapedContainer {
  readonly keys: readonly string[] | undefined
  readonly values: readonly PlainShape[]
}

const objectPrototype: unknown = Object.prototype
const arrayPrototype: unknown = Array.prototype

/**
 * What a chain keeps: bounded in text and in containers, so the shape costs an agent at most a
 * few hundred kilobytes. Larger arguments are compared by their plain text, whose
 * `JSON.stringify` their comparison then outweighs anyway.
 */
const MAX_SHAPED_CHARS = 1 << 16
const MAX_CONTAINERS = 4096

/** The shape of the plain JSON `text`, or undefined when it is too large to keep. */
export function shapeOfText(text: string): PlainShape | undefined {
  if (text.length > MAX_SHAPED_CHARS) return undefined
  let budget = MAX_CONTAINERS
  const shapeOf = (value: unknown): PlainShape => {
    if (typeof value !== 'object' || value === null) return value as PlainShape
    if (--budget < 0) throw TOO_LARGE
    if (isArray(value)) return { keys: undefined, values: mapped(value as unknown[], shapeOf) }
    const keys = objectKeys(value)
    return { keys, values: mapped(keys, (key) => shapeOf((value as Record<string, unknown>)[key])) }
  }
  try {
    return shapeOf(jsonParse(text))
  } catch (error) {
    if (error === TOO_LARGE) return undefined
    throw error
  }
}

const TOO_LARGE = { reason: 'the shape would be too large to keep' }

/** Whether `value` reads as plain data equal to `shape`, member by member and in the same order. */
export function matchesShape(value: unknown, shape: PlainShape): boolean {
  try {
    return inheritsNoEnumerableKey() && matchesMember(value, shape)
  } catch {
    // A getter or proxy trap threw: `JSON.stringify` would too, and the plain text decides.
    return false
  }
}

// An object of the page's `Object.prototype`, made when this module loads: the page can change
// that prototype, never this object.
const probe = {}

/** Whether `Object.prototype` has no enumerable key, which `for...in` would visit after an object's own. */
function inheritsNoEnumerableKey(): boolean {
  for (const _ in probe) return false
  return true
}

function matches(value: unknown, shape: ShapedContainer): boolean {
  if (typeof value !== 'object' || value === null) return false
  if ((value as { toJSON?: unknown }).toJSON !== undefined) return false
  const { keys, values } = shape
  const prototype = getPrototypeOf(value)
  if (keys === undefined) {
    if (!isArray(value) || prototype !== arrayPrototype) return false
    const items = value as unknown[]
    if (items.length !== values.length) return false
    for (let i = 0; i < values.length; i++) if (!matchesMember(items[i], values[i]!)) return false
    return true
  }
  // An array with the prototype of an object is no plain object: JSON writes it as an array.
  if ((prototype !== objectPrototype && prototype !== null) || isArray(value)) return false
  // With nothing enumerable inherited, `for...in` visits exactly the keys `Object.keys` lists, in
  // the same order, and builds no array to list them in: most of what a small walk would cost.
  let i = 0
  for (const name in value) {
    if (i === keys.length || name !== keys[i] || !matchesMember((value as Record<string, unknown>)[name], values[i]!)) return false
    i++
  }
  return i === keys.length
}

/**
 * A string, number, boolean or null reads as the shape's exactly when it is the same value: JSON
 * texts of numbers are equal only for equal numbers (0 and -0 both write `0`), as are the
 * canonical serialiser's.
 */
const matchesMember = (value: unknown, shape: PlainShape): boolean =>
  typeof shape === 'object' && shape !== null ? matches(value, shape) : value === shape
