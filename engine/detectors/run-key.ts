// What makes two tracked calls the same step of a run, for the chain and the cycle window alike:
// the tool; the canonical arguments unless the tool is counted by tool; the result when the tool
// is result-aware.
import type { ResultKey, ResultKeys } from './result-key.ts'
import type { ToolPolicy } from './policy.ts'

/** A tracked call, as the detectors read it. */
export interface TrackedCall {
  readonly tool: string
  /** The text calls are compared by: the canonical arguments, without the ignored keys. */
  readonly canonicalArguments: string
  /** The canonical arguments as called, for previews; when absent, `canonicalArguments`. */
  readonly calledArguments?: string
  readonly policy: ToolPolicy
  /** Undefined unless the tool's policy is result-aware. */
  readonly result: ResultKey | undefined
}

/** A step a call is compared with: the chain's last call, or a call in the cycle window. */
interface Step {
  readonly tool?: string
  readonly canonicalArguments?: string
  readonly result?: ResultKey
}

/** A call's arguments as called, for previews and events. */
export const calledArguments = (call: TrackedCall): string => call.calledArguments ?? call.canonicalArguments

export type StepMatch = 'same' | 'different-call' | 'result-changed'

export function compareStep(previous: Step, call: TrackedCall, results: ResultKeys): StepMatch {
  if (previous.tool !== call.tool || (call.policy.countBy === 'call' && previous.canonicalArguments !== call.canonicalArguments)) return 'different-call'
  const a = previous.result
  const b = call.result
  // Results are compared only when both calls read them. The tool's policy is the same for both
  // unless `configure` changed it between them: then the run goes on, as chains do across a
  // reconfigure. Turned off, the run counts by arguments alone; turned on, the first result read
  // joins the run, and the next ones are compared with it.
  if (a === undefined || b === undefined) return 'same'
  return results.same(a, b) ? 'same' : 'result-changed'
}
