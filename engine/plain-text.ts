// The plain text of a call's arguments: what tells a repeat from a different call without
// building the canonical form again. Plain JSON text equal to the previous call's means the same
// canonical form, because the canonical serialiser reads the same values JSON.stringify reads
// (`toJSON` included), writes numbers and strings the same way and only sorts the keys; so equal
// text, equal trees, equal sorted output. Where the two read differently, there is no text.

import { MAX_DEPTH } from './stringifiers.ts'

// Captured once: a page that replaces JSON.stringify later does not change what chains compare.
const stringify = JSON.stringify
const bigIntPrototype: object = BigInt.prototype

/**
 * The most a chain keeps besides the canonical form: past it, a repeat is compared by its
 * canonical form, as a different call is. Bounds what an agent's chain holds to about twice that.
 */
const MAX_PLAIN_CHARS = 1 << 20

/**
 * The arguments as text to compare with the previous call's: a string as it is (its canonical
 * form depends on nothing else), anything else as plain JSON text. Undefined when that text
 * would not decide: JSON.stringify throws (cycles, BigInt, a getter), writes nothing, or the page
 * gave BigInts a `toJSON`, which JSON.stringify calls and the canonical serialiser does not.
 */
export function plainText(args: unknown): string | undefined {
  if (typeof args === 'string') return args
  if ((bigIntPrototype as { toJSON?: unknown }).toJSON !== undefined) return undefined
  try {
    return stringify(args)
  } catch {
    return undefined
  }
}

/**
 * Whether a chain may keep `text` (of `args`) to recognise the next call by: not too long, and,
 * for JSON text, nested no deeper than the canonical form keeps. Past that depth the canonical
 * form writes an object it cuts as `"[Object]"` unless it has no keys at all, which JSON text
 * does not tell from an object whose members JSON leaves out (`{ a: undefined }` is `{}` too).
 */
export function keepable(text: string, args: unknown): boolean {
  return text.length <= MAX_PLAIN_CHARS && (typeof args === 'string' || nestedWithin(text, MAX_DEPTH))
}

/** Whether no bracket of the JSON `text` opens deeper than `max`. */
function nestedWithin(text: string, max: number): boolean {
  // Every level opens and closes a bracket.
  if (text.length <= 2 * max) return true
  let depth = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (inString) {
      if (c === 0x5c) i++
      else if (c === 0x22) inString = false
    } else if (c === 0x22) inString = true
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > max) return false
    } else if (c === 0x7d || c === 0x5d) depth--
  }
  return true
}
