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
// anything that is not an ordinary record, is left to the serialiser. Nested plain data is copied
// by the same rules at every level (plain-tree-text.ts).
import { isArray, isArrayBufferView, jsonStringify, objectKeys } from './intrinsics.ts'

/** Keys at most: a copy with more would be slower to build than the serialiser's own walk. */
const MAX_KEYS = 32

// An object and an array of the page's prototypes, made when this module loads: JSON.stringify
// would call a `toJSON` the page put on `Object.prototype` or `Array.prototype` (the serialiser
// then gets its turn).
const probe = {}
const arrayProbe: unknown[] = []

/** Whether a copy made now would have a `toJSON`, which JSON.stringify would call: the page put one on a prototype a copy has. */
export const copiesHaveToJson = (): boolean => (probe as { toJSON?: unknown }).toJSON !== undefined || (arrayProbe as { toJSON?: unknown }).toJSON !== undefined

/**
 * Whether assigning `key` to a copy makes it an own member, listed in the order it was added. Not
 * when it starts with a digit (every integer-like key does, and those are listed first), nor when it
 * names a member `Object.prototype` has (`__proto__`, or one a page gave a setter).
 */
const copiesInOrder = (key: string): boolean => !((key >= '0' && key < ':') || key in probe)

/** What JSON leaves out of a record and writes `null` for in an array: `undefined`, a function, a symbol. */
export const LEFT_OUT: unique symbol = Symbol('left out')

/**
 * How a copy copies an object member at `level`: its copy, or undefined to leave the whole value
 * to the serialiser. A flat record has none to copy.
 */
export type NestedCopy = (member: object, level: number) => object | undefined

const noNested: NestedCopy = () => undefined

/** What a copy holds for `member`, read at `level`: itself, `null`, a nested copy, `LEFT_OUT`, or undefined (left to the serialiser). */
export function copiedMember(member: unknown, level: number, nested: NestedCopy): unknown {
  switch (typeof member) {
    case 'string':
    case 'number':
    case 'boolean':
      return member
    case 'object':
      return member === null ? null : nested(member, level + 1)
    case 'bigint':
      return undefined
    default:
      return LEFT_OUT
  }
}

/** A copy of the record `value` at `level`, its members in the serialiser's key order, or undefined. */
export function recordCopy(value: object, level: number, nested: NestedCopy): Record<string, unknown> | undefined {
  const keys = objectKeys(value)
  const count = keys.length
  if (count > MAX_KEYS) return undefined
  sortByCodeUnit(keys)
  const copy: Record<string, unknown> = {}
  for (let i = 0; i < count; i++) {
    const key = keys[i]!
    if (!copiesInOrder(key)) return undefined
    const member = copiedMember((value as Record<string, unknown>)[key], level, nested)
    if (member === undefined) return undefined
    if (member !== LEFT_OUT) copy[key] = member
  }
  return copy
}

/** The serialiser's text for `value` when it is a flat record (see above), else undefined. */
export function flatRecordText(value: object): string | undefined {
  if (isArray(value) || isArrayBufferView(value) || (value as { toJSON?: unknown }).toJSON !== undefined || copiesHaveToJson()) return undefined
  const copy = recordCopy(value, 0, noNested)
  return copy === undefined ? undefined : jsonStringify(copy)
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
