// The opt-in detectors as the guard composes them, built once per config. With none configured
// every answer is the original guard's: the tool's policy is the top level, no result is read,
// no cycle is looked for, and reminders are the original two.
import type { CallClock } from '../call-clock.ts'
import { reminderMessage } from '../reminders.ts'
import { arrayFind } from '../intrinsics.ts'
import type { DetectorName, GuardConfig, ReminderLevel, ReminderMessage, ToolResult } from '../types.ts'
import { anyDetectorOn } from './config.ts'
import { createCycleDetector, type WindowOwner } from './cycles.ts'
import { createErrorRunDetector, type ErrorRunOwner, type Outcome } from './error-runs.ts'
import { createSimilarDetector, type SimilarRunOwner } from './similar.ts'
import { atThreshold, createPolicyResolver, type ToolPolicy } from './policy.ts'
import { createResultKeys, type ResultKey } from './result-key.ts'
import { calledArguments, compareStep, type StepMatch, type TrackedCall } from './run-key.ts'
import { sameToolReminder } from './same-tool.ts'

export { argumentsKey } from './argument-key.ts'
export { blockFeedback } from './enforcement.ts'
export { comparedResult } from './result-key.ts'
export { nextThreshold } from './policy.ts'
export { calledArguments, type TrackedCall }

/** The agent's record, which keeps each detector's window. */
type Owner = WindowOwner & ErrorRunOwner & SimilarRunOwner

interface Fired {
  readonly detector: DetectorName
  readonly level: ReminderLevel
  readonly count: number
  readonly message: ReminderMessage
  /** When a window detector's run began; a run's own reminder has the chain's start. */
  readonly startedAt?: number
}

/** `clock` gives the time of the call being observed, for when runs start (call-clock.ts). */
export function createDetectors(config: GuardConfig, clock: CallClock) {
  const policyFor = createPolicyResolver(config)
  const results = createResultKeys(config.ignoreResultKeys ?? [])
  const cycles = config.cycles && createCycleDetector(config.cycles, config.argumentsPreviewChars, results, clock)
  // On when the top level or any tools entry counts error runs.
  const countsErrors = config.errorRuns !== undefined || arrayFind(config.tools ?? [], (o) => o.errorRuns != null) !== undefined
  const errorRuns = countsErrors ? createErrorRunDetector(config.argumentsPreviewChars, clock) : undefined
  const looksForNear = config.similar !== undefined || arrayFind(config.tools ?? [], (o) => o.similar != null) !== undefined
  const similar = looksForNear ? createSimilarDetector(config.argumentsPreviewChars, clock) : undefined

  /** The reminder for a run of `count`: at a threshold of the tool's policy, else none. */
  function runReminder(call: TrackedCall, count: number): Fired | undefined {
    // Exactly at a threshold; past the highest one the chain is silent. Checked first: most calls
    // are at none, and read nothing else.
    if (!atThreshold(call.policy, count)) return undefined
    const {
      tool,
      policy: { thresholds, countBy },
    } = call
    const level = count === thresholds[0] ? 'gentle' : 'detailed'
    const request = { level, tool, count, canonicalArguments: calledArguments(call), argumentsPreviewChars: config.argumentsPreviewChars } as const
    return countBy === 'tool' ? { detector: 'same-tool', level, count, message: sameToolReminder(request) } : { detector: 'repeat', level, count, message: reminderMessage(request) }
  }

  return {
    policyFor,
    /** Whether reminder events name their detector: only when one is configured. */
    named: anyDetectorOn(config),
    /** A result-aware tool's result content, read once (a getter that throws is the caller's fault). */
    contentOf: (policy: ToolPolicy, result: ToolResult | null | undefined): unknown => (policy.resultAware ? result?.content : undefined),
    /** The result key of content `contentOf` read. */
    resultOf: (policy: ToolPolicy, content: unknown, flags: { isError: boolean; denied: boolean }): ResultKey | undefined => (policy.resultAware ? results.keyOf(content, flags) : undefined),
    /**
     * Whether a call's result reads as the run's last one `last`, without comparing canonical
     * forms or making a key (result-key.ts): for a tool that is not result-aware, both have none.
     */
    repeatsResult: (policy: ToolPolicy, last: ResultKey | undefined, content: unknown, flags: { isError: boolean; denied: boolean }): boolean =>
      policy.resultAware ? results.repeatsContent(last, content, flags) : last === undefined,
    /** How `call` relates to the chain's last call: the same step, another call, or a new result. */
    compare: (chain: Parameters<typeof compareStep>[0], call: TrackedCall): StepMatch => compareStep(chain, call, results),
    /**
     * At most one reminder per call, the first of: the run's own (it already says stop), an error
     * run, a cycle, a near repeat. Every detector still takes the call, so its window stays whole.
     */
    reminderFor:
      cycles || errorRuns || similar
        ? (owner: Owner, call: TrackedCall, count: number, outcome: Outcome, result: ToolResult | null | undefined): Fired | undefined => {
            const failing = errorRuns ? errorRuns.observe(owner, call, outcome, result) : undefined
            const cycle = cycles ? cycles.observe(owner, call, count) : undefined
            const near = similar ? similar.observe(owner, call, count) : undefined
            return (
              runReminder(call, count) ??
              (failing && { detector: 'error-run', level: 'error-run', count: failing.count, message: failing.message, startedAt: failing.startedAt }) ??
              (cycle && { detector: 'cycle', level: 'cycle', count: cycle.periods, message: cycle.message, startedAt: cycle.startedAt }) ??
              (near && { detector: 'similar', level: 'similar', count: near.count, message: near.message, startedAt: near.startedAt })
            )
          }
        : // Without them (the default), only the run's own reminder: chosen once per config.
          (_owner: Owner, call: TrackedCall, count: number): Fired | undefined => runReminder(call, count),
    clear: (owner: Owner) => {
      cycles?.clear(owner)
      errorRuns?.clear(owner)
      similar?.clear(owner)
    },
  }
}
