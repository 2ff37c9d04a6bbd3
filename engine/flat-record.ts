// The canonical form of the commonest arguments, a record whose members are strings, numbers,
// booleans and nulls (`{ path, pattern, maxResults }`), written by the engine's own JSON writer over
// a copy that holds the members in the serialiser's key order. The text is the serialiser's, byte
// for byte (test/unit/engine/flat-record.test.ts checks it over generated records), and flat: the
// serialiser's is a rope, which the comparison with the previous call's form must flatten first,
// at a cost close to the serialisation itself for small arguments.
//
// Why the two texts are equal: for such a record the serialiser reads `toJSON`, lists the keys
// with `Object.keys`, sorts them by code unit, and writes each member that is not left out
// (`undefined`, a function, a symbol) as `"key":value`, where a string is written as
// `JSON.stringify` writes it, a finite number as `String` does (as JSON does), any other number as
// `null`. JSON.stringify writes an ordinary object's members in the order they were added, except
// integer-like keys, which it writes first: a record with a key that starts with a digit, a
// `__proto__` key (which an assignment would not add), a member that is an object or a BigInt, or
// anything that is not an ordinary record, is left to the serialiser.
import { isArray, isArrayBufferView, jsonStringify, objectKeys } from './intrinsics.ts'

/** Keys at most: a copy with more would be slower to build than the serialiser's own walk. */
const MAX_KEYS = 32

// An object of the page's `Object.prototype`, made when this module loads: JSON.stringify would
// call a `toJSON` the page put on that prototype (the serialiser then gets its turn).
const probe = {}

/** The serialiser's text for `value` when it is a flat record (see above), else undefined. */
export function flatRecordText(value: object): string | undefined {
  if (isArray(value) || isArrayBufferView(value) || (value as { toJSON?: unknown }).toJSON !== undefined || (probe as { toJSON?: unknown }).toJSON !== undefined) return undefined
  const keys = objectKeys(value)
  const count = keys.length
  if (count === 0 || count > MAX_KEYS) return undefined
  sortByCodeUnit(keys)
  const copy: Record<string, unknown> = {}
  for (let i = 0; i < count; i++) {
    const key = keys[i]!
    // Starts with a digit (every integer-like key does), or names a member `Object.prototype` has
    // (`__proto__`, or one a page gave a setter): an assignment would not copy it as an own member.
    if ((key >= '0' && key < ':') || key in probe) return undefined
    const member = (value as Record<string, unknown>)[key]
    switch (typeof member) {
      case 'string':
      case 'number':
      case 'boolean':
        copy[key] = member
        break
      case 'object':
        if (member !== null) return undefined
        copy[key] = null
        break
      case 'bigint':
        return undefined
      default:
      // undefined, a function or a symbol: both writers leave the member out.
    }
  }
  return jsonStringify(copy)
}

/**
 * The serialiser's own order (its insertion sort compares with `>`), in place. Not
 * `Array.prototype.sort`: the page may have replaced it.
 */
function sortByCodeUnit(keys: string[]): void {
  for (let i = 1; i < keys.length; i++) {
    const key = keys[i]!
    let j = i - 1
    for (; j >= 0 && keys[j]! > key; j--) keys[j + 1] = keys[j]!
    keys[j + 1] = key
  }
}
