// `ignoreResultKeys` without serialising: a poll's results are one text, byte for byte, but for
// the values of the ignored keys (a timestamp, a request id). A result's template is its JSON text
// cut at those values; a text that is the template with any JSON values in the gaps holds the same
// content once the ignored keys are removed, so it compares the same as canonical forms would, and
// nothing is parsed or written. Any other text (a member moved, white space added, a value that is
// not JSON) is compared by canonical form, as before.
import { CLOSE_BRACE, CLOSE_BRACKET, COMMA, JsonText, OPEN_BRACE, OPEN_BRACKET, QUOTE } from '../json-text.ts'
import { arrayPush, jsonParse, jsonStringify, regExpTest, setHas, stringCharCodeAt, stringIndexOf, stringSlice, stringStartsWith, NativeRegExp } from '../intrinsics.ts'
import { MAX_DEPTH } from '../stringifiers.ts'

/**
 * The text of a JSON object or array around its ignored members' values: `parts[i]` comes before
 * the value in gap `i`, the last part after the last value. Null when the text has no such gap.
 */
export interface ResultTemplate {
  /** The keys it was made for: a config with other keys makes its own. */
  readonly ignored: ReadonlySet<string>
  readonly parts: readonly string[] | null
  /**
   * What each gap held in the text the template was made from (`gaps[i]` is the value after
   * `parts[i]`): a poll writes the same kind of value there every time, so the expression asks
   * for that kind only.
   */
  readonly gaps: readonly GapValue[]
  /** How many texts were found to fit it part by part. */
  fitted: number
  /**
   * Once texts keep fitting, the parts with a value of the gap's kind in each gap as one
   * expression: one native match instead of a scan per part. Made only then, as making one costs
   * as much as thousands of matches; never for a template with an object or array in a gap.
   */
  pattern: RegExp | undefined
}

/** The kind of value a gap held: a string with no escape, a number, a literal, or anything else. */
type GapValue = 'string' | 'number' | 'literal' | 'other'

/**
 * The template of `text`; without parts when it is no JSON object or array, holds no ignored
 * member, or nests deeper than the canonical form keeps (where the walk would only cost).
 */
export function templateOf(text: string, ignored: ReadonlySet<string>): ResultTemplate {
  const gaps = gapsOf(text, ignored)
  return gaps ? { ignored, parts: gaps.parts, gaps: gaps.values, fitted: 0, pattern: undefined } : { ignored, parts: null, gaps: [], fitted: 0, pattern: undefined }
}

/**
 * Whether `text` fits `template`, which has parts: the same parts with a JSON value in every gap.
 * Part by part: a template's expression, once it has one, is matched first by the caller
 * (result-key.ts, `fitsExpression`), and takes only the commonest values in the gaps; the parts take any.
 */
export function fitsTemplate(template: ResultTemplate, text: string): boolean {
  const parts = template.parts!
  if (!fitsParts(parts, text)) return false
  if (++template.fitted === PATTERN_AFTER && text.length <= MAX_PATTERN_TEXT) template.pattern = patternOf(parts, template.gaps)
  return true
}

/** Texts that fit part by part before a template gets its expression: a poll that keeps repeating. */
const PATTERN_AFTER = 8
/** Longer texts are compared part by part: an expression as long as the text costs more than it saves. */
const MAX_PATTERN_TEXT = 16_384

function gapsOf(text: string, ignored: ReadonlySet<string>): GapFinder | null {
  try {
    jsonParse(text)
  } catch {
    return null
  }
  const json = new JsonText(text)
  const start = json.nextNonSpace(0)
  const first = json.at(start)
  if (first !== OPEN_BRACE && first !== OPEN_BRACKET) return null
  const gaps = new GapFinder(json, ignored)
  if (gaps.value(start, 0) < 0 || gaps.parts.length === 0) return null
  gaps.part(text.length)
  return gaps
}

/** Whether `text` is the text of `parts` with a JSON value in every gap. */
function fitsParts(parts: readonly string[], text: string): boolean {
  const last = parts.length - 1
  let at = 0
  for (let i = 0; i < last; i++) {
    const part = parts[i]!
    if (!stringStartsWith(text, part, at)) return false
    at = valueEnd(text, at + part.length)
    if (at < 0) return false
  }
  return text.length === at + parts[last]!.length && stringStartsWith(text, parts[last]!, at)
}

/** Finds the ignored members' values in a text `JSON.parse` accepted, and the parts around them. */
class GapFinder {
  readonly parts: string[] = []
  readonly values: GapValue[] = []
  /** Where the part after the last gap found starts. */
  from = 0

  constructor(
    private readonly json: JsonText,
    private readonly ignored: ReadonlySet<string>,
  ) {}

  /** Just past the value at `at`; -1 past the depth cap. */
  value(at: number, depth: number): number {
    const first = this.json.at(at)
    if (first !== OPEN_BRACE && first !== OPEN_BRACKET) return this.json.valueEnd(at)
    if (depth >= MAX_DEPTH) return -1
    return first === OPEN_BRACE ? this.object(at + 1, depth + 1) : this.array(at + 1, depth + 1)
  }

  private array(at: number, depth: number): number {
    const { json } = this
    at = json.nextNonSpace(at)
    if (json.at(at) === CLOSE_BRACKET) return at + 1
    for (;;) {
      const end = this.value(at, depth)
      if (end < 0) return end
      const next = json.nextNonSpace(end)
      if (json.at(next) !== COMMA) return next + 1
      at = json.nextNonSpace(next + 1)
    }
  }

  private object(at: number, depth: number): number {
    const { json } = this
    at = json.nextNonSpace(at)
    if (json.at(at) === CLOSE_BRACE) return at + 1
    for (;;) {
      const nameEnd = json.stringEnd(at)
      // Past the colon.
      const start = json.nextNonSpace(json.nextNonSpace(nameEnd) + 1)
      const end = setHas(this.ignored, json.name(at, nameEnd)) ? this.gap(start) : this.value(start, depth)
      if (end < 0) return end
      const next = json.nextNonSpace(end)
      if (json.at(next) !== COMMA) return next + 1
      at = json.nextNonSpace(next + 1)
    }
  }

  /** Ends the part that runs up to `end`. */
  part(end: number): void {
    // A flat copy: a slice of the text would keep the whole text alive, and compares slower.
    arrayPush(this.parts, jsonParse(jsonStringify(stringSlice(this.json.text, this.from, end))) as string)
  }

  /** An ignored member's value starts at `start`: the part before it ends there. */
  private gap(start: number): number {
    this.part(start)
    this.from = this.json.valueEnd(start)
    arrayPush(this.values, kindOf(this.json, start, this.from))
    return this.from
  }
}

/** A JSON string, strictly: no raw control character, only the escapes JSON has. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: JSON strings may not hold them raw, which is what this checks.
const STRING = /"(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"/y
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][-+]?\d+)?/y
const LITERAL = /true|false|null/y
/**
 * A gap's value in a template's expression, by the kind the gap held: only that kind, and a
 * string only without escapes, so the expression stays short and fast. A text it does not match
 * is still compared part by part, which takes any value.
 */
const GAP_PATTERNS: Readonly<Record<Exclude<GapValue, 'other'>, string>> = {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: JSON strings may not hold them raw, which is what this checks.
  string: /"[^"\\\u0000-\u001f]*"/.source,
  number: NUMBER.source,
  literal: LITERAL.source,
}

/** The expression of `parts` with a value of the kind in `gaps` in each gap; undefined when a gap held an object or array. */
function patternOf(parts: readonly string[], gaps: readonly GapValue[]): RegExp | undefined {
  let source = '^'
  for (let i = 0; i < parts.length; i++) {
    if (i > 0) {
      const kind = gaps[i - 1]!
      if (kind === 'other') return undefined
      source += `(?:${GAP_PATTERNS[kind]})`
    }
    source += escaped(parts[i]!)
  }
  return new NativeRegExp(`${source}$`)
}

/** The kind of the value from `start` to `end` in a text `JSON.parse` accepted. */
function kindOf(json: JsonText, start: number, end: number): GapValue {
  const first = json.at(start)
  if (first === QUOTE) return plainStringEnd(json.text, start) === end ? 'string' : 'other'
  if (first === MINUS || (first >= ZERO && first <= NINE)) return 'number'
  return first === OPEN_BRACE || first === OPEN_BRACKET ? 'other' : 'literal'
}

/** `text` as an expression that matches it literally. */
function escaped(text: string): string {
  let source = ''
  for (let i = 0; i < text.length; i++) {
    const c = stringSlice(text, i, i + 1)
    source += stringIndexOf(SPECIAL, c) >= 0 ? `\\${c}` : c
  }
  return source
}
const SPECIAL = '\\^$.*+?()[]{}|'
const MINUS = 0x2d
const BACKSLASH = 0x5c
const ZERO = 0x30
const NINE = 0x39

/** Just past the JSON value at `at` in `text`; -1 when none starts there. */
function valueEnd(text: string, at: number): number {
  const first = stringCharCodeAt(text, at)
  if (first === OPEN_BRACE || first === OPEN_BRACKET) return containerEnd(text, at)
  // The commonest values, a string with no escape and a whole number, are read by hand; the
  // expressions read the rest.
  const end = first === QUOTE ? plainStringEnd(text, at) : first > ZERO && first <= NINE ? digitsEnd(text, at) : -1
  if (end >= 0) return end
  const token = first === QUOTE ? STRING : first === MINUS || (first >= ZERO && first <= NINE) ? NUMBER : LITERAL
  token.lastIndex = at
  return regExpTest(token, text) ? token.lastIndex : -1
}

/** Just past the string that opens at `at` when it has no escape; else -1, also when it is no JSON string. */
function plainStringEnd(text: string, at: number): number {
  for (let i = at + 1; ; i++) {
    const c = stringCharCodeAt(text, i)
    if (c === QUOTE) return i + 1
    // An escape, a control character, or the end of the text (NaN).
    if (!(c >= 0x20) || c === BACKSLASH) return -1
  }
}

/** Just past the digits from `at` when no fraction or exponent follows them; else -1. */
function digitsEnd(text: string, at: number): number {
  let i = at + 1
  let c = stringCharCodeAt(text, i)
  while (c >= ZERO && c <= NINE) c = stringCharCodeAt(text, ++i)
  return c === 0x2e || c === 0x65 || c === 0x45 ? -1 : i
}

/** An object or array is found by its brackets, then checked whole: one that is no JSON makes the text no JSON. */
function containerEnd(text: string, at: number): number {
  try {
    const end = new JsonText(text).valueEnd(at)
    jsonParse(stringSlice(text, at, end))
    return end
  } catch {
    return -1
  }
}
