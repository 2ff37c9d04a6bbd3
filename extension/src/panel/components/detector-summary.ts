import type { GuardConfig } from '../../../../engine/index.ts'

/** The opt-in detectors a config turns on, in a line; a resolved config holds only those that are on. */
export function describeDetectors(config: GuardConfig): string {
  const on: string[] = []
  if (config.countBy === 'tool') on.push('count by tool')
  if (config.resultAware) on.push(config.ignoreResultKeys ? `result-aware (ignoring ${config.ignoreResultKeys.join(', ')})` : 'result-aware')
  if (config.cycles) on.push(`cycles of 2..${config.cycles.maxPeriod} calls, ${config.cycles.repeats} times`)
  if (config.stopAfter !== undefined) on.push(`stop after ${config.stopAfter}`)
  if (config.tools) on.push(`${config.tools.length} per-tool override${config.tools.length === 1 ? '' : 's'} (${config.tools.map((t) => t.match).join(', ')})`)
  return on.length === 0 ? 'none: exact repeats only' : on.join(' · ')
}
