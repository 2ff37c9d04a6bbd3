// The error-run detector (`errorRuns`): one tool returning an error again and again, whatever its
// arguments, which the repeat chain misses when each retry changes them a little.
import type { CallClock } from '../call-clock.ts'
import { noticeMessage, previewArguments } from '../reminders.ts'
import type { ReminderMessage, ToolResult } from '../types.ts'
import { contentText } from './error-text.ts'
import type { TrackedCall } from './run-key.ts'
import { firesAt, type RunFired } from './run-firing.ts'

/** One agent's current error run. */
interface ErrorRun {
  /** The detector that made it: a new config's detector starts afresh. */
  readonly detector: object
  tool: string | undefined
  count: number
  /** When the run's first error was seen. */
  startedAt: number
}

/** Who a run belongs to: the agent's record, so it dies with the agent. */
export interface ErrorRunOwner {
  errorRun?: object
}

/** How the call ended, as the agent reported it. */
export interface Outcome {
  readonly isError: boolean
  readonly denied: boolean
}

export type ErrorRunFired = RunFired

export function createErrorRunDetector(argumentsPreviewChars: number, clock: CallClock) {
  const detector = {}

  function runOf(owner: ErrorRunOwner): ErrorRun {
    const kept = owner.errorRun as ErrorRun | undefined
    if (kept !== undefined && kept.detector === detector) return kept
    const made: ErrorRun = { detector, tool: undefined, count: 0, startedAt: 0 }
    owner.errorRun = made
    return made
  }

  /**
   * Takes every tracked call. A denied call did not run, so it has no result to be an error or a
   * success: it neither extends nor ends the run. Another tool's call, a success, or a tool
   * whose policy turns error runs off ends it.
   */
  function observe(owner: ErrorRunOwner, call: TrackedCall, outcome: Outcome, result: ToolResult | null | undefined): ErrorRunFired | undefined {
    if (outcome.denied) return undefined
    const run = runOf(owner)
    const after = call.policy.errorRuns?.after
    if (!outcome.isError || after === undefined) {
      run.tool = undefined
      run.count = 0
      return undefined
    }
    run.count = run.tool === call.tool ? run.count + 1 : 1
    if (run.count === 1) run.startedAt = clock.mark()
    run.tool = call.tool
    const { count } = run
    if (!firesAt(count, after)) return undefined
    return { count, startedAt: run.startedAt, message: errorRunReminder(call.tool, count, previewArguments(contentText(result), argumentsPreviewChars)) }
  }

  return {
    observe,
    clear: (owner: ErrorRunOwner) => {
      owner.errorRun = undefined
    },
  }
}

function errorRunReminder(tool: string, count: number, lastError: string): ReminderMessage {
  const text = `Repeated tool errors detected:\n- tool: ${tool}\n- consecutive_errors: ${count}\n- last_error: ${lastError}\nThe tool keeps failing. Read the error, change the arguments or the approach, or report the failure instead of calling it again.`
  return noticeMessage(text, `${tool} errors × ${count}`)
}
