import picomatch from 'picomatch'
import type { GuardConfig } from './types.ts'

// `bash` makes a single `*` cross `/` and `.`; escaping leaves every other character literal.
const OPTIONS = { bash: true, dot: true, windows: false } as const
const escapeLiteral = (text: string) => text.replace(/[^\p{L}\p{N}_-]/gu, '\\$&')

function compile(pattern: string): (name: string) => boolean {
  return picomatch(pattern.split('*').map(escapeLiteral).join('*'), OPTIONS)
}

/** Which tools a config tracks; answers are cached per name, since agents reuse few tools. */
export function createToolFilter(config: GuardConfig): (tool: string) => boolean {
  const include = config.include.map(compile)
  const exclude = config.exclude.map(compile)
  const cache = new Map<string, boolean>()
  return (tool) => {
    let tracked = cache.get(tool)
    if (tracked === undefined) {
      tracked = (include.length === 0 || include.some((m) => m(tool))) && !exclude.some((m) => m(tool))
      if (cache.size >= 1024) cache.clear()
      cache.set(tool, tracked)
    }
    return tracked
  }
}
