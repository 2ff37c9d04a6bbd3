// The opt-in detectors as the guard composes them, built once per config. With none configured
// every answer is the original guard's: the tool's policy is the top level, no result is read,
// no cycle is looked for, and reminders are the original two.
import { reminderMessage } from '../reminders.ts'
import type { DetectorName, GuardConfig, ReminderLevel, ReminderMessage, ToolResult } from '../types.ts'
import { anyDetectorOn } from './config.ts'
import { createCycleDetector, type CycleFired } from './cycles.ts'
import { blockFeedback } from './enforcement.ts'
import { createPolicyResolver, type ToolPolicy } from './policy.ts'
import { resultKey } from './result-key.ts'
import { sameToolReminder } from './same-tool.ts'

export { blockFeedback, type ToolPolicy }
export { nextThreshold } from './policy.ts'

export interface Fired {
  readonly detector: DetectorName
  readonly level: ReminderLevel
  readonly count: number
  readonly message: ReminderMessage
}

/** A tracked call, as the detectors read it. */
export interface TrackedCall {
  readonly tool: string
  readonly canonicalArguments: string
  readonly policy: ToolPolicy
  /** The result part of the run key; undefined unless the tool's policy is result-aware. */
  readonly result: string | undefined
}

export function createDetectors(config: GuardConfig) {
  const policyFor = createPolicyResolver(config)
  const ignoreKeys = config.ignoreResultKeys ?? []
  const cycles = config.cycles && createCycleDetector(config.cycles, config.argumentsPreviewChars)

  /** The reminder for a run of `count`: at a threshold of the tool's policy, else none. */
  function runReminder({ tool, canonicalArguments, policy }: TrackedCall, count: number): Fired | undefined {
    const { thresholds, countBy } = policy
    // Exactly at a threshold; past the highest one the chain is silent.
    if (!thresholds.includes(count)) return undefined
    const level = count === thresholds[0] ? 'gentle' : 'detailed'
    const request = { level, tool, count, canonicalArguments, argumentsPreviewChars: config.argumentsPreviewChars } as const
    return countBy === 'tool'
      ? { detector: 'same-tool', level, count, message: sameToolReminder(request) }
      : { detector: 'repeat', level, count, message: reminderMessage(request) }
  }

  /** Feeds the call to the cycle detector, when it is on; what it fired, as a reminder. */
  function cycleReminder(owner: object, call: TrackedCall): Fired | undefined {
    if (!cycles) return undefined
    const fired: CycleFired | undefined = cycles.observe(owner, { key: cycleKey(call), tool: call.tool, canonicalArguments: call.canonicalArguments })
    return fired && { detector: 'cycle', level: 'cycle', count: fired.periods, message: fired.message }
  }

  return {
    policyFor,
    /** Whether reminder events name their detector: only when one is configured. */
    named: anyDetectorOn(config),
    resultOf: (policy: ToolPolicy, result: ToolResult | null | undefined, flags: { isError: boolean; denied: boolean }) =>
      policy.resultAware ? resultKey(result, flags, ignoreKeys) : undefined,
    /**
     * At most one reminder per call: a run's own reminder already says stop, so it wins over a
     * cycle completing on the same call (the cycle's window still takes the call).
     */
    reminderFor(owner: object, call: TrackedCall, count: number): Fired | undefined {
      const cycle = cycleReminder(owner, call)
      return runReminder(call, count) ?? cycle
    },
    clear: (owner: object) => cycles?.clear(owner),
  }
}

/** The call's run key, unambiguous whatever the tool name holds. */
function cycleKey({ tool, canonicalArguments, policy, result }: TrackedCall): string {
  const call = policy.countBy === 'tool' ? '' : canonicalArguments
  return `${tool.length}:${tool}${call.length}:${call}${result ?? ''}`
}
