import picomatch from 'picomatch'
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
const asName = (text: string) => `n${text.replaceAll('\uE000', '\uE000\uE000').replaceAll('/', '\uE000\uE001')}`

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
 * matcher also accepts a name equal to the escaped pattern text (`pr\.be` for `pr.be`).
 */
function compile(pattern: string): (name: string) => boolean {
  const expression = picomatch.makeRe(sourceOf(pattern), OPTIONS)
  return (name) => expression.test(asName(name))
}

/** Which tools a config tracks; answers are cached per name, since an agent reuses few tools. */
export function createToolFilter(config: GuardConfig): (tool: string) => boolean {
  const include = config.include.map(compile)
  const exclude = config.exclude.map(compile)
  const cache = new Map<string, boolean>()
  return (tool) => {
    let tracked = cache.get(tool)
    if (tracked === undefined) {
      tracked = (include.length === 0 || include.some((m) => m(tool))) && !exclude.some((m) => m(tool))
      // Bounded: a page that invents tool names must not grow the cache forever.
      if (cache.size >= 1024) cache.clear()
      cache.set(tool, tracked)
    }
    return tracked
  }
}
