// What a sanitized session file writes in place of a tool's arguments, a result or a fault text:
// `[sanitized: 1234 chars, hash 3f9a1c2b7d4e5f60]`, the text's length and its keyed hash
// (keyed-hash.ts). One key per file: equal texts get equal stand-ins within the file, so runs and
// cycles still show and replay, and nothing in the file lets anyone check a guess of a text.
import { hmacSha256 } from './keyed-hash.ts'

const STAND_IN = /^\[sanitized: \d+ chars, hash [0-9a-f]{16}\]$/

/** The stand-in for `text`; `length` is the full length of a text the panel received cut. */
export type TextSanitizer = (text: string, length?: number) => string

/** True for a text that is a stand-in already (a sanitized file is sanitized again unchanged). */
export const isStandIn = (text: string): boolean => STAND_IN.test(text)

export function createTextSanitizer(key: Uint8Array = crypto.getRandomValues(new Uint8Array(32))): TextSanitizer {
  const hash = hmacSha256(key)
  const encoder = new TextEncoder()
  return (text, length = text.length) => {
    if ((text === '' && length === 0) || isStandIn(text)) return text
    let hex = ''
    for (const byte of hash(encoder.encode(text)).subarray(0, 8)) hex += byte.toString(16).padStart(2, '0')
    return `[sanitized: ${length} chars, hash ${hex}]`
  }
}
