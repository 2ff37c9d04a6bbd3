// The canonical form of a JSON text that holds a number a double cannot hold (json-numbers.ts).
// `JSON.parse` would round it, so the text is written from its own tokens instead: the same text,
// byte for byte, as the serialiser writes of what `JSON.parse` makes of it (keys sorted by code
// unit, the last of a name given twice, strings escaped as JSON.stringify escapes them, nesting
// cut at the same depth), but with every number written by `numberText`.
import { CLOSE_BRACE, CLOSE_BRACKET, JsonText, OPEN_BRACE, OPEN_BRACKET, QUOTE } from './json-text.ts'
import { doubleText, numberText } from './json-numbers.ts'
import { arrayPush, arraySort, jsonParse, jsonStringify, objectCreate, regExpExec, regExpTest, stringCharCodeAt, stringSlice } from './intrinsics.ts'
import { MAX_DEPTH } from './stringifiers.ts'

/**
 * Eight digits in a row, or a digit and an exponent of three digits: every number that loses
 * digits has one (at most one point, so 16 significant digits hold a run of eight; fewer, with an
 * exponent under 100, stay within a double's range and precision). Spelt out digit by digit, and
 * each way starting with a digit, which the regex engine scans several times faster than `\d{8}`
 * and skips to, in text that has few.
 */
const HINT = /\d\d\d\d\d\d\d\d|\d[eE][-+]?\d\d\d/g
const NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][-+]?\d+)?$/
const PLUS = 0x2b

/** Characters a number is written with: the token around a hint is read over them. */
function inNumber(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || c === 0x2e || c === 0x2d || c === PLUS || c === 0x65 || c === 0x45
}

/**
 * Whether `text` (JSON) may hold a number whose digits `JSON.parse` would lose. Never misses one;
 * may answer yes for one inside a string, which only costs writing the text from its tokens.
 */
export function losesDigits(text: string): boolean {
  HINT.lastIndex = 0
  for (let hint = regExpExec(HINT, text); hint !== null; hint = regExpExec(HINT, text)) {
    let start = hint.index
    while (start > 0 && inNumber(stringCharCodeAt(text, start - 1))) start--
    let end = HINT.lastIndex
    while (end < text.length && inNumber(stringCharCodeAt(text, end))) end++
    const token = stringSlice(text, start, end)
    if (regExpTest(NUMBER, token) && numberText(token) !== doubleText(token)) return true
    HINT.lastIndex = end
  }
  return false
}

/** The canonical form of `text`, which `JSON.parse` accepted, with every number's digits kept. */
export function exactCanonical(text: string): string {
  const writer = new ExactWriter(new JsonText(text))
  return writer.value(0)
}

class ExactWriter {
  /** Where the next value starts (or white space before it). */
  private at = 0

  constructor(private readonly json: JsonText) {}

  value(depth: number): string {
    const { json } = this
    const start = json.nextNonSpace(this.at)
    const first = json.at(start)
    if (first === OPEN_BRACE || first === OPEN_BRACKET) {
      const inner = json.nextNonSpace(start + 1)
      if (json.at(inner) === (first === OPEN_BRACE ? CLOSE_BRACE : CLOSE_BRACKET)) {
        this.at = inner + 1
        return first === OPEN_BRACE ? '{}' : '[]'
      }
      // Past the depth cap, as the serialiser cuts it: only an empty one is written.
      if (depth >= MAX_DEPTH) {
        this.at = json.valueEnd(start)
        return first === OPEN_BRACE ? '"[Object]"' : '"[Array]"'
      }
      this.at = inner
      return first === OPEN_BRACE ? this.object(depth) : this.array(depth)
    }
    const end = json.valueEnd(start)
    this.at = end
    const token = stringSlice(json.text, start, end)
    if (first === QUOTE) return jsonStringify(jsonParse(token))
    // true, false, null
    return first === 0x74 || first === 0x66 || first === 0x6e ? token : numberText(token)
  }

  private array(depth: number): string {
    let text = '['
    for (;;) {
      text += this.value(depth + 1)
      if (this.next() === CLOSE_BRACKET) return `${text}]`
      text += ','
    }
  }

  private object(depth: number): string {
    const { json } = this
    const names: string[] = []
    // No prototype: a `__proto__` name is an ordinary one, as JSON.parse makes it.
    const members: Record<string, string> = objectCreate(null)
    for (;;) {
      const open = json.nextNonSpace(this.at)
      const close = json.stringEnd(open)
      const name = jsonParse(stringSlice(json.text, open, close)) as string
      // Past the colon.
      this.at = json.nextNonSpace(close) + 1
      const member = this.value(depth + 1)
      if (!(name in members)) arrayPush(names, name)
      members[name] = member
      if (this.next() === CLOSE_BRACE) break
    }
    arraySort(names)
    let text = '{'
    for (let i = 0; i < names.length; i++) text += `${i === 0 ? '' : ','}${jsonStringify(names[i])}:${members[names[i]!]}`
    return `${text}}`
  }

  /** Steps past the comma or closing bracket after a member; returns which it was. */
  private next(): number {
    const at = this.json.nextNonSpace(this.at)
    this.at = at + 1
    return this.json.at(at)
  }
}
