// Inserting values into a JSON text without re-serialising it: every byte the page wrote stays
// as it was (spacing, number spelling, escapes, integers past 2^53, fields we do not know), and
// only the inserted values are new.
//
// An array is read from whichever end is nearer to the insertion, and only as far as it needs:
// reminders follow the newest steps, so in a 2 MB conversation the reading usually stays in its
// last messages. The value `JSON.parse` produced gives each array's length and each object's
// member order; where the text does not agree with it around a member (a name given twice, say),
// that object is read whole, from the end, where the last member of a name is found first, the
// one `JSON.parse` keeps.
import { CLOSE_BRACE, CLOSE_BRACKET, COLON, COMMA, JsonText, OPEN_BRACE, OPEN_BRACKET, QUOTE } from '../json-text.ts'
import type { InsertionPoint } from './types.ts'
import { jsonParse, jsonStringify } from '../intrinsics.ts'

export interface JsonInsertion {
  readonly at: InsertionPoint
  /** The JSON texts of the values to insert there, in order. */
  readonly values: readonly string[]
}

/** Where a value is in the text: from its first character to just past its last. */
interface Span {
  readonly start: number
  readonly end: number
}

/** A value on the way to an insertion: where it ends, where it starts when known, what it holds. */
interface Located {
  readonly end: number
  readonly start: number | undefined
  readonly value: unknown
}

/** An array's elements read so far, from its first one on and from its last one back. */
interface ArrayRead {
  /** Where its `[` is, when known; unknown, the array is only read from its end. */
  open: number | undefined
  readonly fromStart: Span[]
  /** The first character after the elements read from the start. */
  front: number
  /** `fromEnd[0]` is the last element. */
  readonly fromEnd: Span[]
  /** The last character before the elements read from the end. */
  back: number
}

type Json = Readonly<Record<string, unknown>>

// Taken when the engine loads: a page that replaces JSON later cannot steer the splice.
const parseJson = jsonParse
const stringifyJson = jsonStringify

/**
 * `text` with every insertion spliced in; `root` is what `JSON.parse(text)` returned. Throws when
 * a path does not lead to an array of the text or an index is past its end: the caller then
 * sends the body unchanged.
 */
export function spliceJson(text: string, root: unknown, insertions: readonly JsonInsertion[]): string {
  const splicer = new Splicer(new JsonText(text), root)
  const cuts = insertions.map((insertion) => splicer.cut(insertion)).sort((a, b) => a.offset - b.offset)
  let out = ''
  let from = 0
  for (const { offset, piece } of cuts) {
    out += text.slice(from, offset) + piece
    from = offset
  }
  return out + text.slice(from)
}

class Splicer {
  /** Arrays read so far, by the end of their text: several insertions often share one. */
  private readonly arrays = new Map<number, ArrayRead>()

  constructor(
    private readonly json: JsonText,
    private readonly root: unknown,
  ) {}

  cut({ at, values }: JsonInsertion): { offset: number; piece: string } {
    const array = this.locate(at.path)
    if (!Array.isArray(array.value)) throw new Error('the path does not lead to an array')
    const { length } = array.value
    if (at.index < 0 || at.index > length) throw new Error(`index ${at.index} is outside an array of ${length}`)
    const joined = values.join(',')
    if (length === 0) return { offset: array.end - 1, piece: joined }
    if (at.index === 0) return { offset: this.element(array, 0).start, piece: `${joined},` }
    return { offset: this.element(array, at.index - 1).end, piece: `,${joined}` }
  }

  private locate(path: readonly (string | number)[]): Located {
    const { json } = this
    let located: Located = { start: json.nextNonSpace(0), end: json.lastNonSpace(json.text.length - 1) + 1, value: this.root }
    for (const step of path) {
      const { value } = located
      if (typeof step === 'number') {
        if (!Array.isArray(value)) throw new Error(`no array holding element ${step}`)
        located = { ...this.element(located, step), value: value[step] }
      } else {
        if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error(`no object holding "${step}"`)
        located = this.member(located, step, value as Json)
      }
    }
    return located
  }

  /** Element `index` of `array`, read from the nearer end. */
  private element(array: Located, index: number): Span {
    const { json } = this
    const value = array.value as readonly unknown[]
    const back = value.length - 1 - index
    if (index < 0 || back < 0) throw new Error(`no element ${index} in an array of ${value.length}`)
    if (json.at(array.end - 1) !== CLOSE_BRACKET) throw new Error('the text does not hold an array there')
    let read = this.arrays.get(array.end)
    if (!read) {
      const open = array.start !== undefined && json.at(array.start) === OPEN_BRACKET ? array.start : undefined
      read = { open, fromStart: [], front: open === undefined ? 0 : json.nextNonSpace(open + 1), fromEnd: [], back: json.lastNonSpace(array.end - 2) }
      this.arrays.set(array.end, read)
    }
    if (index < read.fromStart.length) return read.fromStart[index]!
    if (back < read.fromEnd.length) return read.fromEnd[back]!
    if (read.open !== undefined && index - read.fromStart.length < back - read.fromEnd.length) {
      while (read.open !== undefined && read.fromStart.length <= index) this.readForward(read, value)
      if (read.open !== undefined) return read.fromStart[index]!
    }
    while (read.fromEnd.length <= back) this.readBackward(read)
    return read.fromEnd[back]!
  }

  private readForward(read: ArrayRead, value: readonly unknown[]): void {
    const { json } = this
    if (json.at(read.front) === CLOSE_BRACKET) throw new Error('the array holds fewer elements than parsed')
    const span = { start: read.front, end: json.valueEnd(read.front) }
    // The first element read from the start vouches that this `[` opens the parsed array.
    if (read.fromStart.length === 0 && !this.holds(span, value[0])) {
      read.open = undefined
      return
    }
    read.fromStart.push(span)
    const after = json.nextNonSpace(span.end)
    read.front = json.at(after) === COMMA ? json.nextNonSpace(after + 1) : after
  }

  private readBackward(read: ArrayRead): void {
    const { json } = this
    if (json.at(read.back) === OPEN_BRACKET) throw new Error('the array holds fewer elements than parsed')
    const span = { start: json.valueStart(read.back + 1), end: read.back + 1 }
    read.fromEnd.push(span)
    const before = json.lastNonSpace(span.start - 1)
    read.back = json.at(before) === COMMA ? json.lastNonSpace(before - 1) : before
  }

  /**
   * Whether the text at `span` is `value`. Most pages write with `JSON.stringify`, so the text is
   * often that of `value` already, byte for byte: then parsing it and writing it again would give
   * the same text (`value` came from `JSON.parse`), and a 16 KB tool result is not read twice.
   */
  private holds(span: Span, value: unknown): boolean {
    const text = this.json.text.slice(span.start, span.end)
    const written = stringifyJson(value)
    return text === written || stringifyJson(parseJson(text)) === written
  }

  /**
   * Member `key` of `object`. The members after it are read back from the object's end and
   * checked against the parsed ones, and so are the members before it, from its start; the
   * member's own value, often most of the text, is not read. A last element that is the parsed
   * one vouches for the value found. (To pass for it, another value would have to sit right
   * before the members after it, under a name the text repeats, and end with the same element:
   * `JSON.stringify`, which the SDKs use, never repeats a name.)
   */
  private member(located: Located, key: string, object: Json): Located {
    const { json } = this
    if (json.at(located.end - 1) !== CLOSE_BRACE) throw new Error(`no object holding "${key}"`)
    const keys = Object.keys(object)
    const at = keys.indexOf(key)
    if (at < 0) throw new Error(`no member "${key}"`)
    const value = object[key]
    let last = json.lastNonSpace(located.end - 2)
    for (let k = keys.length - 1; k > at; k--) {
      const before = this.memberBefore(last)
      if (before.name !== keys[k]) return this.memberByName(located.end, key, value)
      last = before.last
    }
    const end = last + 1
    if (!this.endsLike(end, value)) return this.memberByName(located.end, key, value)
    // Objects are always located with their start: only arrays are found without one.
    return { end, start: this.memberStart(located.start!, keys, at), value }
  }

  /** Whether the value ending at `end` ends as the parsed `value` does: an array with the same last element. */
  private endsLike(end: number, value: unknown): boolean {
    const { json } = this
    if (!Array.isArray(value) || json.at(end - 1) !== CLOSE_BRACKET) return false
    const last = json.lastNonSpace(end - 2)
    if (json.at(last) === OPEN_BRACKET) return value.length === 0
    return value.length > 0 && this.holds({ start: json.valueStart(last + 1), end: last + 1 }, value[value.length - 1])
  }

  /** Where the value of member `keys[at]` starts, reading the members before it; undefined if they disagree. */
  private memberStart(open: number, keys: readonly string[], at: number): number | undefined {
    const { json } = this
    let i = json.nextNonSpace(open + 1)
    for (let k = 0; ; k++) {
      const nameEnd = json.stringEnd(i)
      if (json.name(i, nameEnd) !== keys[k]) return undefined
      const start = json.nextNonSpace(json.nextNonSpace(nameEnd) + 1)
      if (k === at) return start
      // Past the value and its comma.
      i = json.nextNonSpace(json.nextNonSpace(json.valueEnd(start)) + 1)
    }
  }

  /** Reads every member back from the object's end: the last one named `key` is found first. */
  private memberByName(end: number, key: string, value: unknown): Located {
    let last = this.json.lastNonSpace(end - 2)
    while (this.json.at(last) !== OPEN_BRACE) {
      const before = this.memberBefore(last)
      if (before.name === key) return { end: last + 1, start: before.start, value }
      last = before.last
    }
    throw new Error(`no member "${key}"`)
  }

  /** The member whose value ends at `last`: its name, its value's start, and where the member before it ends. */
  private memberBefore(last: number): { name: string; start: number; last: number } {
    const { json } = this
    const start = json.valueStart(last + 1)
    const colon = json.lastNonSpace(start - 1)
    const nameEnd = json.lastNonSpace(colon - 1)
    if (json.at(colon) !== COLON || json.at(nameEnd) !== QUOTE) throw new Error('malformed member')
    const nameStart = json.stringStart(nameEnd)
    const separator = json.lastNonSpace(nameStart - 1)
    return {
      name: json.name(nameStart, nameEnd + 1),
      start,
      last: json.at(separator) === COMMA ? json.lastNonSpace(separator - 1) : separator,
    }
  }
}
