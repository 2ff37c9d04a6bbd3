// The cycle detector: a block of 2..maxPeriod calls repeated back to back (`A B A B A B`,
// `A B C A B C A B C`), which the exact-repeat chain never sees because no two neighbours match.
import type { CallClock } from '../call-clock.ts'
import { noticeMessage, previewArguments } from '../reminders.ts'
import type { CycleConfig, ReminderMessage } from '../types.ts'
import type { ResultKeys } from './result-key.ts'
import { calledArguments, compareStep, type TrackedCall } from './run-key.ts'

/** The last calls of one agent and, per period, how far the pattern has held. */
interface CycleWindow {
  /** The detector that made it: a new config's detector starts its own windows. */
  readonly detector: object
  /** The last `maxPeriod` calls, as a ring: call number `n` sits at `n % maxPeriod`. */
  readonly recent: TrackedCall[]
  /** Calls seen so far. */
  seen: number
  /** `held[p]`: consecutive latest calls that are the same step as the call `p` calls before. */
  readonly held: number[]
  /**
   * `since[p]`: when the pattern `held[p]` counts was first seen to hold, the first call of its
   * second period (for `wasteMs`): read then, so a call that starts no pattern reads no clock.
   */
  readonly since: number[]
  /** How many of the latest calls are the one call object the ring took last. */
  sameObject: number
  /**
   * Repeats of the ring's one object not yet added to `held`: each adds one to every period, so
   * a long run of them is counted here and added when `held` is next read.
   */
  repeated: number
}

interface CycleFired {
  /** Completed periods: `repeats`, twice or three times that. */
  readonly periods: number
  readonly message: ReminderMessage
  /** When the cycle's first call was seen. */
  readonly startedAt: number
}

/** Who a window belongs to: the agent's record, which keeps it, so it dies with the agent. */
export interface WindowOwner {
  cycleWindow?: object
}

/**
 * Per-agent windows, kept on the agent's record (read on every call: a property, not a lookup).
 * `observe` takes every tracked call (untracked calls never reach it, so they are transparent);
 * `clear` forgets an agent's window (a user prompt).
 */
export function createCycleDetector(config: CycleConfig, argumentsPreviewChars: number, results: ResultKeys, clock: CallClock) {
  const { maxPeriod, repeats } = config
  const detector = {}

  /** The owner's window of this detector's, made on its first call. */
  function windowOf(owner: WindowOwner): CycleWindow {
    const kept = owner.cycleWindow as CycleWindow | undefined
    if (kept !== undefined && kept.detector === detector) return kept
    // Captured built-ins only: a page may have replaced `Array.prototype.fill`
    // (docs/security.md, "A page that replaces built-ins").
    const made: CycleWindow = { detector, recent: [], seen: 0, held: zeros(maxPeriod + 1), since: zeros(maxPeriod + 1), sameObject: 0, repeated: 0 }
    owner.cycleWindow = made
    return made
  }

  /** `runLength`: how many of the latest calls are this same call (the chain's count). */
  function observe(owner: WindowOwner, call: TrackedCall, runLength: number): CycleFired | undefined {
    const agentWindow = windowOf(owner)
    const { recent, held, seen } = agentWindow
    if (agentWindow.sameObject >= maxPeriod && isLatest(agentWindow, call)) repeatObject(agentWindow)
    else takeCall(agentWindow, call)
    // A run at least as long as the longest period is a plain repeat over every period: the chain's.
    if (runLength >= maxPeriod) return undefined
    addRepeats(agentWindow)
    // The smallest period over which the pattern holds for a whole period; a block that is one
    // call repeated is a plain repeat, the chain's job.
    for (let p = 2; p <= maxPeriod; p++) {
      if (held[p]! < p || runLength >= p) continue
      // Fires only as a period completes; the smallest period owns the window.
      if (held[p]! % p !== 0) return undefined
      const periods = held[p]! / p + 1
      if (periods !== repeats && periods !== 2 * repeats && periods !== 3 * repeats) return undefined
      const block = Array.from({ length: p }, (_, i) => recent[(seen + 1 - p + i) % maxPeriod]!)
      return { periods, startedAt: agentWindow.since[p]!, message: cycleReminder(block, periods, argumentsPreviewChars) }
    }
    return undefined
  }

  /**
   * A run's repeats are its last call again, the very object (guard.ts). Once the ring holds only
   * that object, a repeat is the same step as every call in it: each period holds once more, and
   * the ring would be written with what it holds. So nothing is compared or written, and the
   * periods are moved on together when next read (`addRepeats`): a long run costs a count.
   */
  function repeatObject(agentWindow: CycleWindow): void {
    agentWindow.repeated += 1
    agentWindow.seen += 1
  }

  /** Whether `call` is the very object the ring took last. */
  const isLatest = ({ recent, seen }: CycleWindow, call: TrackedCall): boolean => seen > 0 && recent[(seen - 1) % maxPeriod] === call

  /** Adds the repeats `repeatObject` counted to every period. */
  function addRepeats(agentWindow: CycleWindow): void {
    const { repeated, held } = agentWindow
    if (repeated === 0) return
    for (let p = 2; p <= maxPeriod; p++) held[p]! += repeated
    agentWindow.repeated = 0
  }

  /** Compares `call` with the call `p` back, for every period, and puts it in the ring. */
  function takeCall(agentWindow: CycleWindow, call: TrackedCall): void {
    addRepeats(agentWindow)
    const { recent, held, seen, since } = agentWindow
    for (let p = 2; p <= maxPeriod; p++) {
      held[p] = seen >= p && sameStep(recent[(seen - p) % maxPeriod]!, call) ? held[p]! + 1 : 0
      // A repeat of the ring's one object never starts a pattern (every period already holds).
      if (held[p] === 1) since[p] = clock.mark()
    }
    agentWindow.sameObject = isLatest(agentWindow, call) ? agentWindow.sameObject + 1 : 1
    recent[seen % maxPeriod] = call
    agentWindow.seen = seen + 1
  }

  /**
   * Whether `call` is the same step as `previous`. A run's repeats are its last call again
   * (guard.ts): the window holds that very call. Another tool's call is another step, told by the
   * names alone (calls in turn are mostly other tools' calls); compareStep compares the rest.
   */
  const sameStep = (previous: TrackedCall, call: TrackedCall): boolean => previous === call || (previous.tool === call.tool && compareStep(previous, call, results) === 'same')

  return {
    observe,
    clear: (owner: WindowOwner) => {
      owner.cycleWindow = undefined
    },
  }
}

function cycleReminder(block: readonly TrackedCall[], periods: number, previewChars: number): ReminderMessage {
  const text = [
    'Repeated cycle of tool calls detected:',
    `- cycle: ${block.map((e) => e.tool).join(' -> ')}`,
    `- repetitions: ${periods}`,
    '- calls:',
    ...block.map((e, i) => `  ${i + 1}. ${e.tool} ${previewArguments(calledArguments(e), previewChars)}`),
    'The same sequence of calls keeps coming back without progress. Inspect the latest results and choose a different action, or finish the task if enough evidence has been gathered.',
  ].join('\n')
  return noticeMessage(text, `cycle × ${periods}`)
}

/** `length` zeros, written index by index. */
function zeros(length: number): number[] {
  const list: number[] = []
  for (let i = 0; i < length; i++) list[i] = 0
  return list
}
