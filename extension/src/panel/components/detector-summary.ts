import type { ErrorRunConfig, GuardConfig, SimilarConfig, ToolOverride } from '../../../../engine/index.ts'

/**
 * `repeatedText` is a zero-code key (docs/detectors.md): read where a config holds it, so the
 * summary names it whichever part of the extension carries it.
 */
type SummarisedConfig = GuardConfig & { readonly repeatedText?: { readonly after: number } | null }

/** The opt-in detectors a config turns on, in a line; a resolved config holds only those that are on. */
export function describeDetectors(config: SummarisedConfig): string {
  const on: string[] = []
  if (config.countBy === 'tool') on.push('count by tool')
  if (config.resultAware) on.push(config.ignoreResultKeys ? `result-aware (ignoring ${config.ignoreResultKeys.join(', ')})` : 'result-aware')
  if (config.cycles) on.push(`cycles of 2..${config.cycles.maxPeriod} calls, ${config.cycles.repeats} times`)
  if (config.stopAfter !== undefined) on.push(`stop after ${config.stopAfter}`)
  if (config.ignoreArgumentKeys) on.push(`arguments compared without ${config.ignoreArgumentKeys.join(', ')}`)
  if (config.similar) on.push(describeSimilar(config.similar))
  if (config.errorRuns) on.push(describeErrorRuns(config.errorRuns))
  if (config.repeatedText) on.push(`repeated answers after ${config.repeatedText.after} (zero-code mode)`)
  if (config.tools) on.push(`${config.tools.length} per-tool override${config.tools.length === 1 ? '' : 's'} (${config.tools.map(describeOverride).join(', ')})`)
  return on.length === 0 ? 'none: exact repeats only' : on.join(' · ')
}

const describeSimilar = ({ threshold, minCalls }: SimilarConfig): string => `near repeats at ${minCalls} calls alike ≥ ${threshold}`
const describeErrorRuns = ({ after }: ErrorRunConfig): string => `error runs after ${after}`

/** An override by its pattern, with the round-2 detectors it sets for its tools (docs/detectors.md, "Volatile argument keys, error runs, near repeats"). */
function describeOverride(override: ToolOverride): string {
  const settings: string[] = []
  if (override.ignoreArgumentKeys !== undefined) settings.push(override.ignoreArgumentKeys.length === 0 ? 'every argument key' : `without ${override.ignoreArgumentKeys.join(', ')}`)
  if (override.similar !== undefined) settings.push(override.similar === null ? 'no near repeats' : describeSimilar(override.similar))
  if (override.errorRuns !== undefined) settings.push(override.errorRuns === null ? 'no error runs' : describeErrorRuns(override.errorRuns))
  return settings.length === 0 ? override.match : `${override.match}: ${settings.join('; ')}`
}
