// What applies to one tool's calls: the top-level settings, or those of the first `tools` entry
// whose pattern matches the tool, with the fields it leaves out taken from the top level.
import { arrayFind, freeze, mapped } from '../intrinsics.ts'
import { answersByName } from '../name-answers.ts'
import { compilePattern } from '../patterns.ts'
import { type KeyNames, keyNamesOf } from './key-names.ts'
import type { CountBy, ErrorRunConfig, GuardConfig, SimilarConfig, ToolOverride } from '../types.ts'

export interface ToolPolicy {
  readonly thresholds: readonly number[]
  readonly countBy: CountBy
  readonly resultAware: boolean
  readonly stopAfter: number | null
  /** The argument keys removed before calls are compared; undefined (the default) removes none. */
  readonly ignoredArguments?: KeyNames | undefined
  /** The tool's error runs; null (the default) counts none. */
  readonly errorRuns?: ErrorRunConfig | null
  /** The tool's near repeats; null (the default) looks for none. */
  readonly similar?: SimilarConfig | null
}

export function createPolicyResolver(config: GuardConfig): (tool: string) => ToolPolicy {
  const top: ToolPolicy = freeze({
    thresholds: config.thresholds,
    countBy: config.countBy ?? 'call',
    resultAware: config.resultAware ?? false,
    stopAfter: config.stopAfter ?? null,
    ignoredArguments: keyNamesOf(config.ignoreArgumentKeys),
    errorRuns: config.errorRuns ?? null,
    similar: config.similar ?? null,
  })
  // Every policy is built with the same fields in the same order: the per-call reads of a policy
  // stay monomorphic whichever tool's it is.
  const overrideOf = (o: ToolOverride): ToolPolicy =>
    freeze({
      thresholds: o.thresholds ?? top.thresholds,
      countBy: o.countBy ?? top.countBy,
      resultAware: o.resultAware ?? top.resultAware,
      stopAfter: o.stopAfter === undefined ? top.stopAfter : o.stopAfter,
      ignoredArguments: o.ignoreArgumentKeys === undefined ? top.ignoredArguments : keyNamesOf(o.ignoreArgumentKeys),
      errorRuns: o.errorRuns === undefined ? top.errorRuns : o.errorRuns,
      similar: o.similar === undefined ? top.similar : o.similar,
    })
  const overrides = mapped(config.tools ?? [], (o) => ({
    matches: compilePattern(o.match),
    policy: overrideOf(o),
  }))
  if (overrides.length === 0) return () => top
  return answersByName((tool) => arrayFind(overrides, (o) => o.matches(tool))?.policy ?? top)
}

/** The next threshold a run of `count` would reach under `policy`, or null past the highest. */
export const nextThreshold = (policy: ToolPolicy, count: number): number | null => arrayFind(policy.thresholds, (t) => t > count) ?? null

/**
 * Whether a run of `count` is exactly at one of `policy`'s thresholds. They are sorted (config
 * validation sorts them), so the loop stops at the first one that is not below `count`.
 */
export function atThreshold(policy: ToolPolicy, count: number): boolean {
  const { thresholds } = policy
  // A long loop is past the highest one: one read answers it.
  if (thresholds.length === 0 || count > thresholds[thresholds.length - 1]!) return false
  // Not past the highest, so the loop stops at one of them, with no answer left for after it.
  let i = 0
  while (thresholds[i]! < count) i++
  return thresholds[i] === count
}
