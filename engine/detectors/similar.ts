// The near-repeat detector (`similar`): consecutive calls of one tool whose arguments are alike
// but not identical (`how do I configure auth`, `configure auth`, `auth configuration`), which
// the repeat chain never counts because no two of them match exactly.
import type { CallClock } from '../call-clock.ts'
import { noticeMessage, previewArguments } from '../reminders.ts'
import type { ReminderMessage } from '../types.ts'
import { comparedText, diceCoefficient } from './bigrams.ts'
import { calledArguments, type TrackedCall } from './run-key.ts'
import { firesAt, type RunFired } from './run-firing.ts'

/** One agent's current similar run. */
interface SimilarRun {
  /** The detector that made it: a new config's detector starts afresh. */
  readonly detector: object
  /** The run's last call: its tool, its compared arguments, and their compared text once made. */
  tool: string | undefined
  key: string | undefined
  /**
   * Made only when a call is compared: a call of another tool after this one compares nothing,
   * so a stream of different tools costs no text (bigrams.ts, `comparedText`).
   */
  text: string | undefined
  count: number
  /** When the run's first call was seen. */
  startedAt: number
}

/** Who a run belongs to: the agent's record, so it dies with the agent. */
export interface SimilarRunOwner {
  similarRun?: object
}

export type SimilarFired = RunFired

export function createSimilarDetector(argumentsPreviewChars: number, clock: CallClock) {
  const detector = {}

  function runOf(owner: SimilarRunOwner): SimilarRun {
    const kept = owner.similarRun as SimilarRun | undefined
    if (kept !== undefined && kept.detector === detector) return kept
    const made: SimilarRun = { detector, tool: undefined, key: undefined, text: undefined, count: 0, startedAt: 0 }
    owner.similarRun = made
    return made
  }

  /**
   * Takes every tracked call; `runLength` is the repeat chain's count after it. A call the chain
   * counted (or the same tool with the same compared arguments) is identical to the one before:
   * it neither extends nor ends the run. A call of a tool whose policy has no `similar` ends it.
   */
  function observe(owner: SimilarRunOwner, call: TrackedCall, runLength: number): SimilarFired | undefined {
    const run = runOf(owner)
    const settings = call.policy.similar
    if (!settings) {
      run.tool = run.key = run.text = undefined
      run.count = 0
      return undefined
    }
    const sameTool = run.tool === call.tool
    if (sameTool && (runLength > 1 || run.key === call.canonicalArguments)) return undefined
    const text = sameTool ? comparedText(call.canonicalArguments) : undefined
    run.count = text !== undefined && diceCoefficient(run.text ?? comparedText(run.key!), text) >= settings.threshold ? run.count + 1 : 1
    if (run.count === 1) run.startedAt = clock.mark()
    run.tool = call.tool
    run.key = call.canonicalArguments
    run.text = text
    const { count } = run
    const { minCalls } = settings
    if (!firesAt(count, minCalls)) return undefined
    return { count, startedAt: run.startedAt, message: similarReminder(call.tool, count, previewArguments(calledArguments(call), argumentsPreviewChars)) }
  }

  return {
    observe,
    clear: (owner: SimilarRunOwner) => {
      owner.similarRun = undefined
    },
  }
}

function similarReminder(tool: string, count: number, lastArguments: string): ReminderMessage {
  const text = `Near-repeated tool calls detected:\n- tool: ${tool}\n- similar_calls: ${count}\n- last_arguments: ${lastArguments}\nThe calls differ only slightly and keep returning to the same request. Inspect the latest result and decide whether a genuinely different approach is needed, or finish the task if enough evidence has been gathered.`
  return noticeMessage(text, `${tool} ≈ × ${count}`)
}
