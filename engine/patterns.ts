import picomatch from 'picomatch'
import { maps, regExpTest, stringReplaceAll } from './intrinsics.ts'
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

/**
 * A matcher for one `*` pattern. The compiled expression is tested directly: picomatch's own
 * matcher also accepts a name equal to the escaped pattern text (`pr\.be` for `pr.be`).
 */
function compile(pattern: string): (name: string) => boolean {
  const expression = picomatch.makeRe(asName(pattern).split('*').map(escapeLiteral).join('*'), OPTIONS)
  return (name) => regExpTest(expression, asName(name))
}

/** Which tools a config tracks; answers are cached per name, since an agent reuses few tools. */
export function createToolFilter(config: GuardConfig): (tool: string) => boolean {
  const include = config.include.map(compile)
  const exclude = config.exclude.map(compile)
  const cache = new Map<string, boolean>()
  const cached = maps<string, boolean>()
  return (tool) => {
    let tracked = cached.get(cache, tool)
    if (tracked === undefined) {
      tracked = (include.length === 0 || matchesAny(include, tool)) && !matchesAny(exclude, tool)
      // Bounded: a page that invents tool names must not grow the cache forever.
      if (cached.size(cache) >= 1024) cached.clear(cache)
      cached.set(cache, tool, tracked)
    }
    return tracked
  }
}

function matchesAny(matchers: readonly ((name: string) => boolean)[], tool: string): boolean {
  for (let i = 0; i < matchers.length; i++) if (matchers[i](tool)) return true
  return false
}
