import { configure } from 'safe-stable-stringify'

// Deterministic (key-sorted) and total: cycles and BigInt get a stable text instead of a throw.
const stableStringify = configure({ deterministic: true, bigint: true, circularValue: '[Circular]' })

/**
 * The canonical form of a call's arguments: a key-sorted serialisation, so that objects that
 * differ only in property order are the same call. A string holding JSON is parsed first (wire
 * formats deliver arguments that way); any other string is its own canonical form. Never throws.
 */
export function canonicalArguments(value: unknown): string {
  if (typeof value === 'string') {
    const parsed = parseJson(value)
    if (parsed === NOT_JSON) return value
    value = parsed
  }
  try {
    return stableStringify(value) ?? 'undefined'
  } catch {
    // A getter, proxy trap or toJSON threw: serialise what can be read, naming what could not.
    return stableStringify(readable(value, new WeakSet())) ?? 'undefined'
  }
}

const NOT_JSON = Symbol('not json')

function parseJson(text: string): unknown {
  // Cheap pre-check: JSON text starts with one of these after optional white space.
  if (!/^\s*[[{"\d\-tfn]/.test(text)) return NOT_JSON
  try {
    return JSON.parse(text)
  } catch {
    return NOT_JSON
  }
}

/** A plain copy of `value` where every property that throws when read becomes a marker. */
function readable(value: unknown, seen: WeakSet<object>): unknown {
  if (typeof value !== 'object' || value === null) return value
  if (seen.has(value)) return '[Circular]'
  seen.add(value)
  try {
    if (Array.isArray(value)) return value.map((v) => readable(v, seen))
    const out: Record<string, unknown> = {}
    for (const key of Object.keys(value)) {
      try {
        out[key] = readable((value as Record<string, unknown>)[key], seen)
      } catch (error) {
        out[key] = `[Thrown: ${errorText(error)}]`
      }
    }
    return out
  } catch (error) {
    return `[Unreadable: ${errorText(error)}]`
  } finally {
    seen.delete(value)
  }
}

function errorText(error: unknown): string {
  try {
    return error instanceof Error ? error.message : String(error)
  } catch {
    return 'unknown error'
  }
}

/**
 * The head of a canonical string, at most `maxChars` long, then `… (+N more chars)`.
 * Never splits a surrogate pair, so the text stays valid inside a JSON request body.
 */
export function previewArguments(canonical: string, maxChars: number): string {
  if (canonical.length <= maxChars) return canonical
  let end = maxChars
  const last = canonical.charCodeAt(end - 1)
  if (last >= 0xd800 && last <= 0xdbff) end -= 1
  return `${canonical.slice(0, end)}… (+${canonical.length - end} more chars)`
}
