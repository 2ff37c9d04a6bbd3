// Opt-in enforcement (`stopAfter`): before a tool runs, refuse the call that would make a run
// longer than the limit. It reads the chain and changes nothing; the refused call, once reported
// as denied, counts like any denied call.
import type { ToolPolicy } from './policy.ts'

interface Run {
  readonly tool?: string
  readonly canonicalArguments?: string
  readonly count: number
}

/**
 * The feedback that blocks a call of `tool` extending `run`, or undefined to let it run. With
 * `countBy: 'call'` the arguments must match too (read lazily: most calls never get that far).
 * A result-aware run can only have grown this long on identical results (or denied calls), so
 * the next is taken to be the same again.
 */
export function blockFeedback(run: Run, tool: string, policy: ToolPolicy, argumentsOf: () => string): string | undefined {
  const { stopAfter } = policy
  if (stopAfter === null || run.count < stopAfter || run.tool !== tool) return undefined
  if (policy.countBy === 'call' && argumentsOf() !== run.canonicalArguments) return undefined
  return `Blocked by repeat-tool-guard: ${tool} was already called ${run.count} times in a row with identical arguments (stopAfter: ${stopAfter}). Choose a different action.`
}
