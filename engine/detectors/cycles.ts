// The cycle detector: a block of 2..maxPeriod calls repeated back to back (`A B A B A B`,
// `A B C A B C A B C`), which the exact-repeat chain never sees because no two neighbours match.
import { noticeMessage, previewArguments } from '../reminders.ts'
import type { CycleConfig, ReminderMessage } from '../types.ts'

/** One tracked call as the detector remembers it. */
export interface CycleEntry {
  /** The call's run key: equal keys are the same step of the cycle. */
  readonly key: string
  readonly tool: string
  readonly canonicalArguments: string
}

/** The last calls of one agent and, per period, how far the pattern has held. */
interface CycleWindow {
  readonly recent: CycleEntry[]
  /** `held[p]`: consecutive latest calls whose key equals the key `p` calls before. */
  readonly held: number[]
}

export interface CycleFired {
  /** Completed periods: `repeats`, twice or three times that. */
  readonly periods: number
  readonly message: ReminderMessage
}

/**
 * Per-agent windows, keyed by the agent's record so they die with it. `observe` takes every
 * tracked call (untracked calls never reach it, so they are transparent); `clear` forgets an
 * agent's window (a user prompt).
 */
export function createCycleDetector(config: CycleConfig, argumentsPreviewChars: number) {
  const { maxPeriod, repeats } = config
  const windows = new WeakMap<object, CycleWindow>()

  function observe(owner: object, entry: CycleEntry): CycleFired | undefined {
    let window = windows.get(owner)
    if (!window) windows.set(owner, (window = { recent: [], held: Array<number>(maxPeriod + 1).fill(0) }))
    const { recent, held } = window
    for (let p = 2; p <= maxPeriod; p++) held[p] = recent.at(-p)?.key === entry.key ? held[p]! + 1 : 0
    recent.push(entry)
    if (recent.length > maxPeriod) recent.shift()
    // The smallest period over which the pattern holds for a whole period, not one call repeated.
    for (let p = 2; p <= maxPeriod; p++) {
      if (held[p]! < p || uniform(recent, p)) continue
      // Fires only as a period completes; the smallest period owns the window.
      if (held[p]! % p !== 0) return undefined
      const periods = held[p]! / p + 1
      if (periods !== repeats && periods !== 2 * repeats && periods !== 3 * repeats) return undefined
      return { periods, message: cycleReminder(recent.slice(-p), periods, argumentsPreviewChars) }
    }
    return undefined
  }

  return { observe, clear: (owner: object) => void windows.delete(owner) }
}

/** Whether the last `p` calls are all the same call: a plain repeat, the chain's job. */
function uniform(recent: readonly CycleEntry[], p: number): boolean {
  const last = recent.at(-1)!.key
  for (let i = recent.length - p; i < recent.length; i++) if (recent[i]!.key !== last) return false
  return true
}

function cycleReminder(block: readonly CycleEntry[], periods: number, previewChars: number): ReminderMessage {
  const text = [
    'Repeated cycle of tool calls detected:',
    `- cycle: ${block.map((e) => e.tool).join(' -> ')}`,
    `- repetitions: ${periods}`,
    '- calls:',
    ...block.map((e, i) => `  ${i + 1}. ${e.tool} ${previewArguments(e.canonicalArguments, previewChars)}`),
    'The same sequence of calls keeps coming back without progress. Inspect the latest results and choose a different action, or finish the task if enough evidence has been gathered.',
  ].join('\n')
  return noticeMessage(text, `cycle × ${periods}`)
}
