// The result-aware detector's part of a run key: what a call's result says, so that a poll whose
// result changes is progress, not a loop.
import { canonicalArguments, canonicalJson } from '../canonical.ts'
import { setOf } from '../intrinsics.ts'
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
    let template = a.template
    if (template === undefined || template.ignored !== ignored) a.template = template = templateOf(aText, ignored)
    if (template.parts === null) return false
    if (b.template === template) return true
    if (!fitsTemplate(template, bText)) return false
    b.template = template
    return true
  }

  return {
    /**
     * Reads `result.content` once; a getter that throws there is the caller's fault to report.
     * Other content is made canonical at once: the page may change the object later. No content
     * is compared as `undefined` is: as canonical.ts writes it.
     */
    of(result: ToolResult | null | undefined, { isError, denied }: ResultFlags): ResultKey {
      const content = result?.content
      if (typeof content === 'string') return { isError, denied, text: content, canonical: undefined, template: undefined }
      return { isError, denied, text: undefined, canonical: canonicalOf(content), template: undefined }
    },
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
     * absent (the tool is not result-aware), or both text with the same error flag, neither denied
     * (a denied call is compared by the full path, which keeps the last real result), and the
     * same text, or the same text around the values of the ignored keys.
     */
    repeats(a: ResultKey | undefined, b: ResultKey | undefined): boolean {
      if (a === undefined || b === undefined) return a === b
      if (a.denied || b.denied || a.isError !== b.isError || a.text === undefined || b.text === undefined) return false
      return a.text === b.text || (ignoring && sameAroundIgnored(a, a.text, b, b.text))
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
