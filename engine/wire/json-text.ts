// Stepping over values of a JSON text, forwards and backwards, without decoding them. Only for a
// text `JSON.parse` accepted. Backwards is sound too: in valid JSON a quote after an even run of
// backslashes is the edge of a string and any other quote is escaped, so every string, and with
// them every bracket outside strings, is found from either side.
import { jsonParse } from '../intrinsics.ts'

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
    return this.text.charCodeAt(i)
  }

  /** The first index from `i` on that is not white space. */
  nextNonSpace(i: number): number {
    while (isSpace(this.text.charCodeAt(i))) i++
    return i
  }

  /** The last index up to `i` that is not white space (-1 when there is none). */
  lastNonSpace(i: number): number {
    while (i >= 0 && isSpace(this.text.charCodeAt(i))) i--
    return i
  }

  /** Just past the value that starts at `start`. */
  valueEnd(start: number): number {
    const { text } = this
    const first = text.charCodeAt(start)
    if (first === QUOTE) return this.stringEnd(start)
    if (isOpen(first)) {
      let depth = 0
      for (let i = start; i < text.length; i++) {
        const c = text.charCodeAt(i)
        if (c === QUOTE) i = this.stringEnd(i) - 1
        else if (isOpen(c)) depth++
        else if (isClose(c) && --depth === 0) return i + 1
      }
      throw new Error('unbalanced brackets')
    }
    // A number, true, false or null: up to the delimiter after it.
    let i = start
    while (i < text.length && !isDelimiter(text.charCodeAt(i))) i++
    return i
  }

  /** Where the value that ends just before `end` starts. */
  valueStart(end: number): number {
    const { text } = this
    const last = end - 1
    const c = text.charCodeAt(last)
    if (c === QUOTE) return this.stringStart(last)
    if (isClose(c)) {
      let depth = 0
      for (let i = last; i >= 0; i--) {
        const d = text.charCodeAt(i)
        if (d === QUOTE) i = this.stringStart(i)
        else if (isClose(d)) depth++
        else if (isOpen(d) && --depth === 0) return i
      }
      throw new Error('unbalanced brackets')
    }
    let i = last
    while (i > 0 && !isDelimiter(text.charCodeAt(i - 1))) i--
    return i
  }

  /** Just past the closing quote of the string that opens at `open`. */
  stringEnd(open: number): number {
    // One native match per string, escapes and all: strings are most of a conversation's bytes.
    STRING.lastIndex = open
    if (!STRING.test(this.text)) throw new Error('unterminated string')
    return STRING.lastIndex
  }

  /** The opening quote of the string whose closing quote is at `close`. */
  stringStart(close: number): number {
    const { text } = this
    let from = close - 1
    while (from >= 0) {
      const quote = text.lastIndexOf('"', from)
      if (quote < 0) break
      let slashes = 0
      while (text.charCodeAt(quote - 1 - slashes) === BACKSLASH) slashes++
      if (slashes % 2 === 0) return quote
      from = quote - 1
    }
    throw new Error('unterminated string')
  }

  /** The decoded text of the string token from `open` to just before `end`. */
  name(open: number, end: number): string {
    const raw = this.text.slice(open + 1, end - 1)
    // Member names are almost never escaped; decode only when they are.
    return raw.includes('\\') ? (parseJson(`"${raw}"`) as string) : raw
  }
}

function isDelimiter(c: number): boolean {
  return c === COMMA || c === COLON || isOpen(c) || isClose(c) || isSpace(c)
}
