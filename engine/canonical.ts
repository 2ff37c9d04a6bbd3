import { arrayPush, callFunction, isArray, isArrayBufferView, jsonParse, objectCreate, objectKeys, regExpTest, weakSetAdd, weakSetDelete, weakSetHas } from './intrinsics.ts'
import { exactCanonical, losesDigits } from './exact-json.ts'
import { flatRecordText } from './flat-record.ts'
import { plainTreeText } from './plain-tree-text.ts'
import { checkSerialiser } from './serialiser-check.ts'
import { MAX_DEPTH, stringify, stringifySafely } from './stringifiers.ts'
import { errorText } from './error-text.ts'
import { typedArrayCopy } from './typed-array-copy.ts'

/**
 * The canonical form of a call's arguments: a key-sorted serialisation, so that objects that
 * differ only in property order are the same call and arrays keep their order. A string holding
 * JSON is parsed first (wire formats deliver arguments that way), its numbers keeping the digits
 * a double cannot hold (json-numbers.ts); any other string is its own canonical form. Never
 * throws, unless the page replaced a built-in the serialiser calls with one that throws
 * (`BrokenSerialiserError`).
 */
export function canonicalArguments(value: unknown): string {
  return canonicalArgumentsAfter(value, undefined)
}

/**
 * Texts of at least this many characters are written flat when they can be (plain-tree-text.ts):
 * comparing two long texts of the serialiser's, ropes of many small pieces, costs more than the
 * copy a flat text takes, while for short ones the copy costs more than it saves.
 */
const LONG_TEXT = 8_192

/**
 * `canonicalArguments` of a call that follows one of the same tool whose text was `previous`
 * (chain.ts): arguments tell their length only once written, and a long text is likely followed
 * by another.
 */
export const canonicalArgumentsAfter = (value: unknown, previous: string | undefined): string =>
  typeof value === 'string' ? (canonicalJson(value) ?? value) : canonicalValue(value, previous !== undefined && previous.length >= LONG_TEXT)

/**
 * The canonical form of the JSON value `text` holds; undefined when it holds none (it is then its
 * own canonical form, a text with no members to read).
 */
export function canonicalJson(text: string): string | undefined {
  const parsed = parseJson(text)
  if (parsed === NOT_JSON) return undefined
  return losesDigits(text) ? exactCanonical(text) : canonicalValue(parsed, text.length >= LONG_TEXT)
}

/** `long`: the text is likely long, so it is written flat also when nested (the copy writes a flat record too). */
function canonicalValue(value: unknown, long: boolean): string {
  let text: string | undefined
  try {
    text = (typeof value === 'object' && value !== null ? (long ? plainTreeText(value) : flatRecordText(value)) : undefined) ?? stringify(value)
  } catch {
    checkSerialiser(stringify)
    // A getter, proxy trap or toJSON threw: serialise what can be read, naming what could not.
    text = stringifySafely(readable(value, '', 0, new WeakSet()))
  }
  return text ?? 'undefined'
}

const NOT_JSON = Symbol('not json')
const JSON_START = /^[ \t\r\n]*[[{"\d\-tfn]/

function parseJson(text: string): unknown {
  // JSON text starts with one of these after optional white space; most raw strings do not.
  if (!regExpTest(JSON_START, text)) return NOT_JSON
  try {
    return jsonParse(text)
  } catch {
    return NOT_JSON
  }
}

/**
 * A plain-data copy of `value` as JSON sees it (`toJSON` applied once, as JSON.stringify does),
 * where every part that throws when read becomes a marker text, so the rest of the arguments
 * still tells calls apart. Below the depth cap the value is left for the serialiser to cut.
 */
function readable(value: unknown, key: string, depth: number, ancestors: WeakSet<object>): unknown {
  if (typeof value !== 'object' || value === null || depth > MAX_DEPTH) return value
  try {
    const toJSON: unknown = (value as { toJSON?: unknown }).toJSON
    return copy(typeof toJSON === 'function' ? callFunction(toJSON, value, [key]) : value, depth, ancestors)
  } catch (error) {
    return thrown(error)
  }
}

function copy(value: unknown, depth: number, ancestors: WeakSet<object>): unknown {
  if (typeof value !== 'object' || value === null) return value
  if (weakSetHas(ancestors, value)) return '[Circular]'
  weakSetAdd(ancestors, value)
  try {
    if (isArray(value)) {
      const items: unknown[] = []
      for (let i = 0; i < value.length; i++) arrayPush(items, member(value, `${i}`, depth, ancestors))
      return items
    }
    // A typed array stays one: the serialiser writes its items in index order, not sorted as keys.
    const typed = isArrayBufferView(value) ? typedArrayCopy(value, (name) => member(value, name, depth, ancestors)) : undefined
    if (typed !== undefined) return typed
    // No prototype: a `__proto__` key stays an ordinary key, as JSON.parse made it.
    const fields: Record<string, unknown> = objectCreate(null)
    const names = objectKeys(value)
    for (let i = 0; i < names.length; i++) fields[names[i]] = member(value, names[i], depth, ancestors)
    return fields
  } catch (error) {
    return thrown(error)
  } finally {
    weakSetDelete(ancestors, value)
  }
}

function member(container: object, key: string, depth: number, ancestors: WeakSet<object>): unknown {
  try {
    return readable((container as Record<string, unknown>)[key], key, depth + 1, ancestors)
  } catch (error) {
    return thrown(error)
  }
}

const thrown = (error: unknown) => `[Thrown: ${errorText(error)}]`
