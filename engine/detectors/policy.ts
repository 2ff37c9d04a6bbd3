// What applies to one tool's calls: the top-level settings, or those of the first `tools` entry
// whose pattern matches the tool, with the fields it leaves out taken from the top level.
import { compilePattern } from '../patterns.ts'
import type { CountBy, GuardConfig } from '../types.ts'

export interface ToolPolicy {
  readonly thresholds: readonly number[]
  readonly countBy: CountBy
  readonly resultAware: boolean
  readonly stopAfter: number | null
}

export function createPolicyResolver(config: GuardConfig): (tool: string) => ToolPolicy {
  const top: ToolPolicy = Object.freeze({
    thresholds: config.thresholds,
    countBy: config.countBy ?? 'call',
    resultAware: config.resultAware ?? false,
    stopAfter: config.stopAfter ?? null,
  })
  const overrides = (config.tools ?? []).map(({ match, ...fields }) => ({
    matches: compilePattern(match),
    policy: Object.freeze({ ...top, ...fields }),
  }))
  if (overrides.length === 0) return () => top
  const cache = new Map<string, ToolPolicy>()
  return (tool) => {
    let policy = cache.get(tool)
    if (policy === undefined) {
      policy = overrides.find((o) => o.matches(tool))?.policy ?? top
      // Bounded: a page that invents tool names must not grow the cache forever.
      if (cache.size >= 1024) cache.clear()
      cache.set(tool, policy)
    }
    return policy
  }
}

/** The next threshold a run of `count` would reach under `policy`, or null past the highest. */
export const nextThreshold = (policy: ToolPolicy, count: number): number | null => policy.thresholds.find((t) => t > count) ?? null
