import picomatch from 'picomatch'
import { mapped, regExpTest, stringReplaceAll } from './intrinsics.ts'
import { answersByName } from './name-answers.ts'
import type { GuardConfig } from './types.ts'

// The `s` flag lets `*` take any character, a new line too. (Path rules are defused by `asName`.)
const OPTIONS = { windows: false, flags: 's' } as const

/** Every character but `*` is literal: escape what picomatch would read as syntax. */
const escapeLiteral = (text: string) => text.replace(/[^\p{L}\p{N}_-]/gu, '\\$&')

/**
 * Tool names are not paths, but picomatch reads `/` as a separator and will not let `*` take a
 * `.` or `..` segment. Both sides go through the same rewrite: `/` becomes a pair of private-use
 * characters (the first doubled where it occurs, so distinct names stay distinct) and a letter
 * leads, so no segment (and no leading dot) is left to special-case.
 */
const asName = (text: string) => `n${stringReplaceAll(stringReplaceAll(text, '\uE000', '\uE000\uE000'), '/', '\uE000\uE001')}`

/** What picomatch is given for one `*` pattern: the name rewrite, every literal escaped. */
const sourceOf = (pattern: string) => asName(pattern).split('*').map(escapeLiteral).join('*')

// picomatch refuses a source over 65,536 characters, but V8 already refuses to compile literals
// of half that, and overflows its stack on a few thousand stars, depending on how deep the call
// is. Tool names are short: a cap far below both keeps every valid pattern compilable anywhere.
const MAX_PATTERN_CHARS = 1024

/** Why `pattern` cannot be a matcher, or undefined: validation asks, so a config that validates compiles. */
export function patternProblem(pattern: string): string | undefined {
  return pattern.length > MAX_PATTERN_CHARS ? `is too long for the matcher (at most ${MAX_PATTERN_CHARS} characters)` : undefined
}

/**
 * A matcher for one `*` pattern. The compiled expression is tested directly: picomatch's own
 * matcher also accepts a name equal to the escaped pattern text (`pr\.be` for `pr.be`). Throws
 * for a pattern too long for picomatch; config validation calls it first, so a guard never does.
 */
export function compilePattern(pattern: string): (name: string) => boolean {
  // Without a `*` every character is literal: the name must be the pattern. Compared without
  // picomatch, which calls built-ins the page can replace (a guard may be built after it has).
  if (!regExpTest(STAR, pattern)) return (name) => name === pattern
  const expression = picomatch.makeRe(sourceOf(pattern), OPTIONS)
  return (name) => regExpTest(expression, asName(name))
}

const STAR = /\*/

/** Which tools a config tracks (name-answers.ts keeps the answer per name). */
export function createToolFilter(config: GuardConfig): (tool: string) => boolean {
  const include = mapped(config.include, compilePattern)
  const exclude = mapped(config.exclude, compilePattern)
  // The default tracks every tool: no lookup per call.
  if (include.length === 0 && exclude.length === 0) return trackEveryTool
  return answersByName((tool) => (include.length === 0 || matchesAny(include, tool)) && !matchesAny(exclude, tool))
}

function matchesAny(matchers: readonly ((name: string) => boolean)[], tool: string): boolean {
  for (let i = 0; i < matchers.length; i++) if (matchers[i](tool)) return true
  return false
}

const trackEveryTool = (): boolean => true
