// The canonical form of nested plain data, records and arrays whose leaves are strings, numbers,
// booleans and nulls (`{ query, options: { limit } }`, a list of records), written by
// JSON.stringify over a copy, as flat-record.ts writes a record of one level: every record copied
// as that file copies one (its reasons hold at each level), every array in its order. The text is
// the serialiser's, byte for byte (test/unit/engine/plain-tree-text.test.ts checks it over
// generated values), and flat. The serialiser writes nested data as a rope of many small pieces,
// and comparing two such texts of equal length walks both ropes piece by piece: for large
// arguments that costs more than writing them, so canonical.ts asks for this copy for long texts
// (docs/engine.md, "How a repeat is recognised cheaply, and still exactly").
//
// An item JSON leaves out of an array (`undefined`, a function, a symbol) is written `null` by
// both writers: the copy holds `null` there. Anything else is left to the serialiser: a BigInt, a
// typed array, a value with `toJSON`, a record flat-record.ts would not copy (more than 32 keys, or
// a key the copy would list elsewhere), and data nested deeper than `MAX_LEVELS` (a cycle never
// ends, so it stops there too, and the serialiser writes its marker).
import { copiedMember, copiesHaveToJson, LEFT_OUT, recordCopy } from './flat-record.ts'
import { isArray, isArrayBufferView, isSafeInteger, jsonStringify, objectHasOwn } from './intrinsics.ts'

/** Levels at most, far below the serialiser's depth cap (stringifiers.ts), where it cuts. */
const MAX_LEVELS = 64

/** The serialiser's text for `value` when it is nested plain data (see above), else undefined. */
export function plainTreeText(value: object): string | undefined {
  if (copiesHaveToJson()) return undefined
  const copy = copyOf(value, 0)
  return copy === undefined ? undefined : jsonStringify(copy)
}

/** A copy of the record or array `value` at `level` that JSON.stringify writes as the serialiser does, or undefined. */
function copyOf(value: object, level: number): object | undefined {
  if (level > MAX_LEVELS || isArrayBufferView(value) || (value as { toJSON?: unknown }).toJSON !== undefined) return undefined
  return isArray(value) ? arrayCopy(value, level) : recordCopy(value, level, copyOf)
}

function arrayCopy(value: readonly unknown[], level: number): unknown[] | undefined {
  // Read once: a proxy may answer a length no array has, which the serialiser reads its own way.
  const { length } = value
  if (!isSafeInteger(length) || length < 0) return undefined
  const items: unknown[] = []
  for (let i = 0; i < length; i++) {
    const item = copiedMember(value[i], level, copyOf)
    if (item === undefined) return undefined
    items[i] = item === LEFT_OUT ? null : item
    // A setter the page put on an index of Array.prototype or Object.prototype takes the item
    // instead of the copy (JSON.stringify would then read its getter).
    if (!objectHasOwn(items, i)) return undefined
  }
  return items
}
