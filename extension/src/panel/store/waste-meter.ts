// The calls an agent spent inside runs or cycles that reached a reminder: what a user would have
// paid for had the agent been stopped at the first one. Derived from recorded rows only, so an
// imported session is measured again by feeding it its own rows.
import type { PanelEvent } from '../../protocol/events.ts'
import { cycleTools } from './cycle-marks.ts'
import type { AgentRecord } from './timeline-entry.ts'

type CallEvent = Extract<PanelEvent, { type: 'call' }>
type ReminderEvent = Extract<PanelEvent, { type: 'reminder' }>

interface RunState {
  /** The run in progress reached a reminder: each further call of it is spent too. */
  reminded: boolean
  /** The last call counted, so no call is counted twice (a run reminds at 3, 5 and 8). */
  countedSeq: number
}

export class WasteMeter {
  private readonly runs = new WeakMap<AgentRecord, RunState>()

  private stateOf(agent: AgentRecord): RunState {
    let state = this.runs.get(agent)
    if (!state) this.runs.set(agent, (state = { reminded: false, countedSeq: 0 }))
    return state
  }

  call(agent: AgentRecord, event: CallEvent): void {
    if (!event.tracked) return
    const state = this.stateOf(agent)
    if (event.count <= 1) state.reminded = false
    else if (state.reminded && event.seq > state.countedSeq) this.spend(agent, state, event.seq, 1)
  }

  /** A run ended (a prompt, a different call, a changed result). */
  reset(agent: AgentRecord): void {
    this.stateOf(agent).reminded = false
  }

  reminder(agent: AgentRecord, event: ReminderEvent): void {
    const state = this.stateOf(agent)
    // A run reminder's count is the run's length; a cycle's is its completed periods.
    const calls = event.level === 'cycle' ? event.count * (cycleTools(event.text)?.length ?? 2) : event.count
    // Calls of seq up to the last counted one are already in; untracked calls between make the
    // seq span wider than the run, hence the bound by the run's own length.
    this.spend(agent, state, event.seq, Math.min(calls, event.seq - state.countedSeq))
    if (event.level !== 'cycle') state.reminded = true
  }

  private spend(agent: AgentRecord, state: RunState, seq: number, calls: number): void {
    if (calls <= 0) return
    agent.wasted += calls
    state.countedSeq = seq
    agent.rev += 1
  }
}
