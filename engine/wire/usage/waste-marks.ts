// Waste in zero-code mode (docs/zero-code.md, "Waste"): the engine times a run from its first call
// to the one that fires by the run marks it reads (run-marks.ts). Here each call the engine
// observes is given a number of its own as its mark, and the number stands for the moment the page
// saw the response that made the call (else the moment the call was first seen) and for the tokens
// the agent's responses had cost by then. The engine's waste, the difference of two marks, is then
// turned back into the milliseconds and the tokens between those two calls.
import { now } from '../../intrinsics.ts'
import { withRunMark } from '../../run-marks.ts'
import type { GuardEvent } from '../../types.ts'
import type { WireCall } from '../types.ts'
import type { WireAgent } from '../wire-agent.ts'
import { callKey } from './call-key.ts'
import type { ResponseRecords } from './response-records.ts'

interface Mark {
  readonly at: number
  /** The tokens of the agent's responses up to and with the one that made the call. */
  readonly spent: number
  /** How many of those responses told their usage: tokens are known only from them. */
  readonly told: number
}

interface Meter {
  spent: number
  told: number
  /** The response last counted: calls one response made share its cost once. */
  last: number | undefined
}

/** Marks kept at once by default: a run whose first mark was forgotten reports zero time and no tokens. */
const MAX_MARKS = 65_536

export interface WasteMarks {
  /** Runs `observe` (the engine observing `call` of `agent`) with the call's mark. */
  marked(agent: WireAgent, call: WireCall, observe: () => void): void
  /** The engine's event with its waste in milliseconds, and in tokens when a response told them, when it reports waste. */
  measured(event: GuardEvent): GuardEvent
}

export function createWasteMarks(records: ResponseRecords, maxMarks = MAX_MARKS): WasteMarks {
  const marks = new Map<number, Mark>()
  const meters = new WeakMap<WireAgent, Meter>()
  let last = 0
  /** The mark of the call being observed. */
  let current = 0

  return {
    marked(agent, call, observe) {
      const seen = records.forCall(callKey(call.id, call.name, call.arguments))
      let meter = meters.get(agent)
      if (!meter) {
        meter = { spent: 0, told: 0, last: undefined }
        meters.set(agent, meter)
      }
      if (seen && seen.response !== meter.last) {
        if (seen.tokens !== undefined) {
          meter.spent += seen.tokens
          meter.told += 1
        }
        meter.last = seen.response
      }
      const mark = ++last
      marks.set(mark, { at: seen?.at ?? now(), spent: meter.spent, told: meter.told })
      if (marks.size > maxMarks) marks.delete(marks.keys().next().value!)
      const outer = current
      current = mark
      try {
        withRunMark(mark, observe)
      } finally {
        current = outer
      }
    },

    measured(event) {
      if ((event.type !== 'reminder' && event.type !== 'blocked') || event.wasteMs === undefined || current === 0) return event
      const to = marks.get(current)!
      const from = marks.get(current - event.wasteMs)
      // A run whose first mark was forgotten reports no time, and no tokens, which are unknown.
      if (!from) return { ...event, wasteMs: 0 }
      const wasteMs = to.at > from.at ? to.at - from.at : 0
      // Tokens only when some response after the run's first call told its usage: none read is
      // no figure, not zero tokens.
      return to.told > from.told ? { ...event, wasteMs, wasteTokens: to.spent - from.spent } : { ...event, wasteMs }
    },
  }
}
