// Arguments that a wire format sends as an object inside the body (Anthropic's `tool_use.input`,
// Gemini's `functionCall.args`): `JSON.parse` of the body rounds `{"id":1800000000000000001}` and
// `{"id":1800000000000000002}` to one number, and two different calls would read as a repeat. So
// an arguments object whose numbers may have lost digits is handed on as its own JSON text, cut
// from the body, which the canonical form reads with every digit (docs/engine.md, "Known limits").
// Nothing is read again unless the body holds such a number and the arguments hold a number a
// double may have rounded: the common body costs one scan for long digit runs, made at the first
// arguments object, so a format that sends arguments as text (Chat Completions, Responses) never
// pays for it.
import { losesDigits } from '../exact-json.ts'
import { CLOSE_BRACE, CLOSE_BRACKET, COMMA, JsonText, OPEN_BRACE, OPEN_BRACKET } from '../json-text.ts'
import { isArray, isSafeInteger, objectHasOwn, objectKeys, stringSlice, weakMapGet, weakMapSet } from '../intrinsics.ts'
import { MAX_DEPTH } from '../stringifiers.ts'

/** The arguments to hand on for an arguments value of the parsed body: itself, or its JSON text. */
export type ExactArguments = (value: unknown) => unknown

/** Every arguments value as `JSON.parse` made it. */
export const asParsed: ExactArguments = (value) => value

/** `exact` for a body `text` that `JSON.parse` turned into `root`. */
export function exactArguments(text: string, root: unknown): ExactArguments {
  let lossy: boolean | undefined
  let texts: WeakMap<object, string> | undefined
  return (value) => {
    if (typeof value !== 'object' || value === null) return value
    lossy ??= losesDigits(text)
    if (!lossy || !mayBeRounded(value, 0)) return value
    texts ??= textsOf(text, root)
    return weakMapGet(texts, value) ?? value
  }
}

/** Whether `value` holds a number that may be a rounded one: past 2^53, or with a fraction or exponent. */
function mayBeRounded(value: unknown, depth: number): boolean {
  if (typeof value === 'number') return !isSafeInteger(value)
  if (typeof value !== 'object' || value === null || depth > MAX_DEPTH) return false
  const items = isArray(value) ? value : objectValues(value)
  for (let i = 0; i < items.length; i++) if (mayBeRounded(items[i], depth + 1)) return true
  return false
}

function objectValues(value: object): unknown[] {
  const keys = objectKeys(value)
  const values: unknown[] = []
  for (let i = 0; i < keys.length; i++) values[i] = (value as Record<string, unknown>)[keys[i]!]
  return values
}

/**
 * The JSON text of every object and array of `root`, found by reading `text` alongside it. A name
 * given twice is read twice: the later reading, the one `JSON.parse` kept, is the one that stays.
 * Empty when the text is nested too deep to read this way.
 */
function textsOf(text: string, root: unknown): WeakMap<object, string> {
  const texts = new WeakMap<object, string>()
  const json = new JsonText(text)
  try {
    read(json, json.nextNonSpace(0), root, texts, 0)
  } catch {
    return new WeakMap()
  }
  return texts
}

/** Reads the value at `at`, which `JSON.parse` made `value`; returns its end. */
function read(json: JsonText, at: number, value: unknown, texts: WeakMap<object, string>, depth: number): number {
  const first = json.at(at)
  if (first !== OPEN_BRACE && first !== OPEN_BRACKET) return json.valueEnd(at)
  if (depth > MAX_DEPTH) throw new Error('nested too deep')
  const close = first === OPEN_BRACE ? CLOSE_BRACE : CLOSE_BRACKET
  let i = json.nextNonSpace(at + 1)
  for (let index = 0; json.at(i) !== close; index++) {
    let member: unknown
    if (first === OPEN_BRACE) {
      const nameEnd = json.stringEnd(i)
      const name = json.name(i, nameEnd)
      member = typeof value === 'object' && value !== null && !isArray(value) && objectHasOwn(value, name) ? (value as Record<string, unknown>)[name] : undefined
      i = json.nextNonSpace(json.nextNonSpace(nameEnd) + 1)
    } else member = isArray(value) ? value[index] : undefined
    const end = json.nextNonSpace(read(json, i, member, texts, depth + 1))
    i = json.at(end) === COMMA ? json.nextNonSpace(end + 1) : end
  }
  if (typeof value === 'object' && value !== null) weakMapSet(texts, value, stringSlice(json.text, at, i + 1))
  return i + 1
}
