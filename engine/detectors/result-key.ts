// The result-aware detector's part of a run key: what a call's result says, so that a poll whose
// result changes is progress, not a loop.
import { canonicalArguments, canonicalJson } from '../canonical.ts'
import { regExpExec, setOf } from '../intrinsics.ts'
import type { ToolResult } from '../types.ts'
import { fitsTemplate, templateOf, type ResultTemplate } from './result-template.ts'
import { withoutKeys } from './without-keys.ts'

/**
 * A result as runs compare it. Text content is kept as it came and made canonical only when two
 * texts differ: the same text always has the same canonical form, and a loop repeats its text.
 */
export interface ResultKey {
  readonly isError: boolean
  /** The call did not run, so it has no result of its own. */
  readonly denied: boolean
  /** The content when it is text; its canonical form is worked out on demand. */
  readonly text: string | undefined
  canonical: string | undefined
  /**
   * With ignored keys, the text around their values (result-template.ts): worked out on demand
   * for the keys in force, and shared by every later text found to fit it.
   */
  template: ResultTemplate | undefined
}

interface ResultFlags {
  readonly isError: boolean
  readonly denied: boolean
}

/** Result keys for one config: `ignoreKeys` are removed at any depth before results are compared. */
export function createResultKeys(ignoreKeys: readonly string[]) {
  const ignored = setOf(ignoreKeys)
  const ignoring = ignoreKeys.length > 0
  const canonicalOf = (content: unknown): string => {
    if (!ignoring) return canonicalArguments(content)
    if (typeof content !== 'string') return withoutKeys(canonicalArguments(content), ignored)
    // Text that is not JSON has no keys to remove.
    const json = canonicalJson(content)
    return json === undefined ? content : withoutKeys(json, ignored)
  }
  const canonicalKey = (key: ResultKey) => (key.canonical ??= canonicalOf(key.text))
  /**
   * Whether two texts are one template with other values in its gaps: then they are the same
   * result, as their canonical forms would say. Two texts that fit one template are the same too.
   * A template made for other keys (before a `configure`) is made again.
   */
  const sameAroundIgnored = (a: ResultKey, aText: string, b: ResultKey, bText: string): boolean => {
    // Both fitted one template already (a cycle compares a call with several before it).
    if (sharesTemplate(a, b)) return true
    if (fitsExpression(a, bText)) {
      b.template = a.template
      return true
    }
    const template = templateFor(a, aText)
    if (template.parts === null) return false
    if (!fitsTemplate(template, bText)) return false
    b.template = template
    return true
  }
  /**
   * Whether `text` matches the expression of `a`'s template for the keys in force, once it has
   * one (result-template.ts): one native match, which says what fitting the template would, without
   * the steps that lead there. A poll's results, and a cycle's, are matched this way.
   */
  const fitsExpression = (a: ResultKey, text: string): boolean => {
    const template = a.template
    return template !== undefined && template.ignored === ignored && template.pattern !== undefined && regExpExec(template.pattern, text) !== null
  }
  /** Whether `a` and `b` were found to fit one template of the keys in force: then they are the same result. */
  const sharesTemplate = (a: ResultKey, b: ResultKey): boolean => {
    const template = a.template
    return template !== undefined && template === b.template && template.ignored === ignored && template.parts !== null
  }
  /** The template of `a`'s text for the keys in force, made on demand. */
  const templateFor = (a: ResultKey, aText: string): ResultTemplate => {
    let template = a.template
    if (template === undefined || template.ignored !== ignored) a.template = template = templateOf(aText, ignored)
    return template
  }
  /** Whether `bText` is `a`'s text, or the same text around the values of the ignored keys. */
  const sameText = (a: ResultKey, aText: string, bText: string): boolean => {
    if (aText === bText) return true
    if (!ignoring) return false
    const template = templateFor(a, aText)
    return template.parts !== null && fitsTemplate(template, bText)
  }

  /**
   * The key of content already read. Other content than text is made canonical at once: the page
   * may change the object later. No content is compared as `undefined` is: as canonical.ts writes it.
   */
  const keyOf = (content: unknown, { isError, denied }: ResultFlags): ResultKey =>
    typeof content === 'string'
      ? { isError, denied, text: content, canonical: undefined, template: undefined }
      : { isError, denied, text: undefined, canonical: canonicalOf(content), template: undefined }

  return {
    /**
     * Reads `result.content` once; a getter that throws there is the caller's fault to report.
     */
    of(result: ToolResult | null | undefined, flags: ResultFlags): ResultKey {
      return keyOf(result?.content, flags)
    },
    keyOf,
    /**
     * A denied call (refused, or blocked by `stopAfter`) did not run: it matches any result, so
     * it counts in the run of the same call as every denied call does.
     */
    same(a: ResultKey, b: ResultKey): boolean {
      if (a.denied || b.denied) return true
      if (a.isError !== b.isError) return false
      if (a.text !== undefined && a.text === b.text) return true
      if (ignoring && a.text !== undefined && b.text !== undefined && sameAroundIgnored(a, a.text, b, b.text)) return true
      return canonicalKey(a) === canonicalKey(b)
    },
    /**
     * Whether `b` reads as the run's last result `a` without comparing canonical forms: both
     * text with the same error flag, neither denied (a denied call is compared by the full path,
     * which keeps the last real result), and the same text, or the same text around the values of
     * the ignored keys. `b` keeps the template it fitted, so two such keys compare at once.
     */
    repeats(a: ResultKey, b: ResultKey): boolean {
      if (a.denied || b.denied || a.isError !== b.isError || a.text === undefined || b.text === undefined) return false
      return a.text === b.text || (ignoring && sameAroundIgnored(a, a.text, b, b.text))
    },
    /**
     * `repeats` for a result not yet made a key: its content, read once, and its flags. A repeat
     * found this way needs no key (the run's last call stands for it), so none is made.
     */
    repeatsContent(a: ResultKey | undefined, content: unknown, { isError, denied }: ResultFlags): boolean {
      if (a === undefined || a.denied || denied || a.isError !== isError || a.text === undefined || typeof content !== 'string') return false
      return fitsExpression(a, content) || sameText(a, a.text, content)
    },
  }
}

export type ResultKeys = ReturnType<typeof createResultKeys>

/** The canonical form of no content (and of content JSON leaves out, such as a function). */
const NO_CONTENT = 'undefined'

/**
 * The content a result key compares, for inspectors; undefined when the call reported none or
 * did not run. Replayed as content, it compares as the content it stands for.
 */
export function comparedContent(key: ResultKey | undefined): string | undefined {
  if (key === undefined || key.denied) return undefined
  return key.text ?? (key.canonical === NO_CONTENT ? undefined : key.canonical)
}

/**
 * What a call's `call` event gives as its result: `comparedContent` of the call's own key. A text
 * result found to repeat the run's last one has no key of its own: its text is what a key would give.
 */
export function comparedResult(content: unknown, denied: boolean, key: ResultKey | undefined): string | undefined {
  if (typeof content === 'string') return denied ? undefined : content
  return comparedContent(key)
}
