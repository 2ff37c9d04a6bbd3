// The calls an agent spent inside runs or cycles that reached a reminder: what a user would have
// paid for had the agent been stopped at the first one. Derived from recorded rows only, so an
// imported session is measured again by feeding it its own rows. A run whose reminder fell due
// inside a server's loop (withheld `server-loop`: docs/panel.md, "Would remind") is measured a
// second way too: the calls the loop made after that first would-remind, which no reminder could
// have reached from the page.
import type { PanelEvent } from '../../protocol/events.ts'
import { cycleTools } from './cycle-marks.ts'
import type { AgentRecord } from './timeline-entry.ts'

type CallEvent = Extract<PanelEvent, { type: 'call' }>
type ReminderEvent = Extract<PanelEvent, { type: 'reminder' }>

interface RunState {
  /** The run in progress reached a reminder: each further call of it is spent too. */
  reminded: boolean
  /** The run in progress reached a reminder inside a server's loop: each further call of it was made by that loop past it. */
  inServerLoop: boolean
  /** The last call counted, so no call is counted twice (a run reminds at 3, 5 and 8). */
  countedSeq: number
  /** The last call counted as spent in a server's loop. */
  loopSeq: number
}

export class WasteMeter {
  private readonly runs = new WeakMap<AgentRecord, RunState>()

  private stateOf(agent: AgentRecord): RunState {
    let state = this.runs.get(agent)
    if (!state) this.runs.set(agent, (state = { reminded: false, inServerLoop: false, countedSeq: 0, loopSeq: 0 }))
    return state
  }

  call(agent: AgentRecord, event: CallEvent): void {
    if (!event.tracked) return
    const state = this.stateOf(agent)
    if (event.count <= 1) {
      state.reminded = false
      state.inServerLoop = false
      return
    }
    if (state.reminded && event.seq > state.countedSeq) this.spend(agent, state, event.seq, 1)
    if (state.inServerLoop && event.seq > state.loopSeq) {
      agent.loopSpent += 1
      state.loopSeq = event.seq
      agent.rev += 1
    }
  }

  /** A run ended (a prompt, a different call, a changed result). */
  reset(agent: AgentRecord): void {
    const state = this.stateOf(agent)
    state.reminded = false
    state.inServerLoop = false
  }

  reminder(agent: AgentRecord, event: ReminderEvent): void {
    const state = this.stateOf(agent)
    // A run reminder's count is the run's length; a cycle's is its completed periods.
    const calls = event.level === 'cycle' ? event.count * (cycleTools(event.text)?.length ?? 2) : event.count
    // Calls of seq up to the last counted one are already in; untracked calls between make the
    // seq span wider than the run, hence the bound by the run's own length.
    this.spend(agent, state, event.seq, Math.min(calls, event.seq - state.countedSeq))
    if (event.level !== 'cycle') state.reminded = true
    if (event.withheld === 'server-loop') {
      state.inServerLoop = true
      state.loopSeq = Math.max(state.loopSeq, event.seq)
    }
  }

  private spend(agent: AgentRecord, state: RunState, seq: number, calls: number): void {
    if (calls <= 0) return
    agent.wasted += calls
    state.countedSeq = seq
    agent.rev += 1
  }
}
