import picomatch from 'picomatch'
import type { GuardConfig } from './types.ts'

// `bash` lets `*` cross `/` and `.`, `dot` lets it take a leading dot, the `s` flag lets it take
// any character (a new line too), `strictSlashes` stops a pattern matching the name plus a `/`.
const OPTIONS = { bash: true, dot: true, windows: false, strictSlashes: true, flags: 's' } as const

/** Every character but `*` is literal: escape what picomatch would read as syntax. */
const escapeLiteral = (text: string) => text.replace(/[^\p{L}\p{N}_-]/gu, '\\$&')

/**
 * A matcher for one `*` pattern. The compiled expression is tested directly: picomatch's own
 * matcher also accepts a name equal to the escaped pattern text (`pr\.be` for `pr.be`).
 */
function compile(pattern: string): (name: string) => boolean {
  const expression = picomatch.makeRe(pattern.split('*').map(escapeLiteral).join('*'), OPTIONS)
  return (name) => expression.test(name)
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
