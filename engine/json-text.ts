// Stepping over values of a JSON text, forwards and backwards, without decoding them. Only for a
// text `JSON.parse` accepted. Backwards is sound too: in valid JSON a quote after an even run of
// backslashes is the edge of a string and any other quote is escaped, so every string, and with
// them every bracket outside strings, is found from either side. It runs in the page: only
// built-ins captured when the engine loads (intrinsics.ts).
import { jsonParse, regExpTest, stringCharCodeAt, stringIndexOf, stringLastIndexOf, stringSlice } from './intrinsics.ts'

export const QUOTE = 0x22
const BACKSLASH = 0x5c
export const OPEN_BRACE = 0x7b
export const CLOSE_BRACE = 0x7d
export const OPEN_BRACKET = 0x5b
export const CLOSE_BRACKET = 0x5d
export const COMMA = 0x2c
export const COLON = 0x3a

// Taken when the engine loads: a page that replaces JSON later cannot steer the reading.
const parseJson = jsonParse

/** A whole JSON string from its opening quote (sticky: it matches right at `lastIndex`). */
const STRING = /"[^"\\]*(?:\\[\s\S][^"\\]*)*"/y

const isSpace = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09
const isOpen = (c: number) => c === OPEN_BRACE || c === OPEN_BRACKET
const isClose = (c: number) => c === CLOSE_BRACE || c === CLOSE_BRACKET

export class JsonText {
  constructor(readonly text: string) {}

  at(i: number): number {
    return stringCharCodeAt(this.text, i)
  }

  /** The first index from `i` on that is not white space. */
  nextNonSpace(i: number): number {
    while (isSpace(stringCharCodeAt(this.text, i))) i++
    return i
  }

  /** The last index up to `i` that is not white space (-1 when there is none). */
  lastNonSpace(i: number): number {
    while (i >= 0 && isSpace(stringCharCodeAt(this.text, i))) i--
    return i
  }

  /** Just past the value that starts at `start`. */
  valueEnd(start: number): number {
    const { text } = this
    const first = stringCharCodeAt(text, start)
    if (first === QUOTE) return this.stringEnd(start)
    if (isOpen(first)) {
      let depth = 0
      for (let i = start; i < text.length; i++) {
        const c = stringCharCodeAt(text, i)
        if (c === QUOTE) i = this.stringEnd(i) - 1
        else if (isOpen(c)) depth++
        else if (isClose(c) && --depth === 0) return i + 1
      }
      throw new Error('unbalanced brackets')
    }
    // A number, true, false or null: up to the delimiter after it.
    let i = start
    while (i < text.length && !isDelimiter(stringCharCodeAt(text, i))) i++
    return i
  }

  /** Where the value that ends just before `end` starts. */
  valueStart(end: number): number {
    const { text } = this
    const last = end - 1
    const c = stringCharCodeAt(text, last)
    if (c === QUOTE) return this.stringStart(last)
    if (isClose(c)) {
      let depth = 0
      for (let i = last; i >= 0; i--) {
        const d = stringCharCodeAt(text, i)
        if (d === QUOTE) i = this.stringStart(i)
        else if (isClose(d)) depth++
        else if (isOpen(d) && --depth === 0) return i
      }
      throw new Error('unbalanced brackets')
    }
    let i = last
    while (i > 0 && !isDelimiter(stringCharCodeAt(text, i - 1))) i--
    return i
  }

  /** Just past the closing quote of the string that opens at `open`. */
  stringEnd(open: number): number {
    // One native match per string, escapes and all: strings are most of a conversation's bytes.
    STRING.lastIndex = open
    if (!regExpTest(STRING, this.text)) throw new Error('unterminated string')
    return STRING.lastIndex
  }

  /** The opening quote of the string whose closing quote is at `close`. */
  stringStart(close: number): number {
    const { text } = this
    let from = close - 1
    while (from >= 0) {
      const quote = stringLastIndexOf(text, '"', from)
      if (quote < 0) break
      let slashes = 0
      while (stringCharCodeAt(text, quote - 1 - slashes) === BACKSLASH) slashes++
      if (slashes % 2 === 0) return quote
      from = quote - 1
    }
    throw new Error('unterminated string')
  }

  /** The decoded text of the string token from `open` to just before `end`. */
  name(open: number, end: number): string {
    const raw = stringSlice(this.text, open + 1, end - 1)
    // Member names are almost never escaped; decode only when they are.
    return stringIndexOf(raw, '\\') >= 0 ? (parseJson(`"${raw}"`) as string) : raw
  }
}

function isDelimiter(c: number): boolean {
  return c === COMMA || c === COLON || isOpen(c) || isClose(c) || isSpace(c)
}
