// The calls an agent spent inside runs or cycles that reached a reminder: what a user would have
// paid for had the agent been stopped at the first one. Derived from recorded rows only, so an
// imported session is measured again by feeding it its own rows. A run whose reminder fell due
// inside a server's loop (withheld `server-loop`: docs/panel.md, "Would remind") is measured a
// second way too: the calls the loop made after that first would-remind, which no reminder could
// have reached from the page. With an opt-in detector on, reminders and blocks also say what their
// run cost in time (`wasteMs`) and, for wire agents, in tokens (`wasteTokens`): each is the run's
// total so far, so a run that fires again adds only what it cost since (docs/detectors.md, "Waste").
import type { PanelEvent } from '../../protocol/events.ts'
import { cycleTools } from './cycle-marks.ts'
import type { AgentRecord } from './timeline-entry.ts'

type CallEvent = Extract<PanelEvent, { type: 'call' }>
type ReminderEvent = Extract<PanelEvent, { type: 'reminder' }>
type BlockedEvent = Extract<PanelEvent, { type: 'blocked' }>
type RequestEvent = Extract<PanelEvent, { type: 'request' }>

/**
 * What an agent's loops cost beyond their calls, each only once some event carried it: `wasteMs`
 * comes with any opt-in detector on, `wasteTokens` from wire agents.
 */
export interface WasteCost {
  readonly ms?: number
  readonly tokens?: number
}

/** The last cost a run reported, to add only what it cost since when it fires again. */
interface RunCost {
  readonly count: number
  readonly ms: number
  readonly tokens: number
}

interface AgentCost {
  ms: number
  tokens: number
  timed: boolean
  tokensSeen: boolean
  /** By detector (and tool, but for the repeat chain, of which an agent has one). */
  readonly runs: Map<string, RunCost>
}

/** The exact-repeat chain's key: its reminders and blocks report one run, until a chain reset. */
const CHAIN = 'chain'

interface RunState {
  /** The run in progress reached a reminder: each further call of it is spent too. */
  reminded: boolean
  /** The run in progress reached a reminder inside a server's loop: each further call of it was made by that loop past it. */
  inServerLoop: boolean
  /** The last call counted, so no call is counted twice (a run reminds at 3, 5 and 8). */
  countedSeq: number
  /** The last call counted as spent in a server's loop. */
  loopSeq: number
  /**
   * The tool of an error run that reached a reminder: each further error of that tool is spent too,
   * until a success or another tool's call ends the run (docs/detectors.md, "Error runs").
   */
  erroring: string | undefined
  /** The calls in the last request's conversation (wire agents): a request with fewer starts another. */
  requestCalls: number
  /**
   * The calls counted for the followed error run since the last request, and whether its reminder
   * came since: a request's events come before the request itself, so the calls of a conversation
   * that turns out to be another are taken back from a run it did not continue.
   */
  erroringSpent: number
  erroringSinceRequest: boolean
}

export class WasteMeter {
  private readonly runs = new WeakMap<AgentRecord, RunState>()
  private readonly costs = new WeakMap<AgentRecord, AgentCost>()

  /** The time and tokens the agent's reminded runs cost, as their events reported them. */
  costOf(agent: AgentRecord): WasteCost {
    const cost = this.costs.get(agent)
    return { ...(cost?.timed ? { ms: cost.ms } : {}), ...(cost?.tokensSeen ? { tokens: cost.tokens } : {}) }
  }

  private stateOf(agent: AgentRecord): RunState {
    let state = this.runs.get(agent)
    if (!state) this.runs.set(agent, (state = { reminded: false, inServerLoop: false, countedSeq: 0, loopSeq: 0, erroring: undefined, requestCalls: 0, erroringSpent: 0, erroringSinceRequest: false }))
    return state
  }

  call(agent: AgentRecord, event: CallEvent): void {
    if (!event.tracked) return
    const state = this.stateOf(agent)
    // A denied call did not run: it neither extends nor ends an error run.
    if (state.erroring !== undefined && !event.denied) {
      if (event.tool !== state.erroring || !event.isError) state.erroring = undefined
      else if (event.seq > state.countedSeq) {
        this.spend(agent, state, event.seq, 1)
        state.erroringSpent += 1
      }
    }
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

  /**
   * A run ended (a prompt, a different call, a changed result). It ends the repeat chain's run, and
   * on a prompt an error run too: each call of a near repeat or of an error run may be a different
   * call, and the other detectors' runs start again at their first count, which `charge` tells
   * from a run going on.
   */
  reset(agent: AgentRecord, prompt: boolean): void {
    const state = this.stateOf(agent)
    state.reminded = false
    state.inServerLoop = false
    if (prompt) state.erroring = undefined
    this.costs.get(agent)?.runs.delete(CHAIN)
  }

  /**
   * A wire agent's request. Its conversation holds fewer calls than the last one's when it no longer
   * extends it (a new conversation, an edited prompt): the guard then starts its runs again from
   * what the two share, and an error run the panel follows ends there.
   */
  request(agent: AgentRecord, event: RequestEvent): void {
    const state = this.stateOf(agent)
    if (event.calls < state.requestCalls && !state.erroringSinceRequest) {
      state.erroring = undefined
      agent.wasted -= state.erroringSpent
      agent.rev += 1
    }
    state.requestCalls = event.calls
    state.erroringSpent = 0
    state.erroringSinceRequest = false
  }

  blocked(agent: AgentRecord, event: BlockedEvent): void {
    this.charge(agent, CHAIN, event.count, event)
  }

  reminder(agent: AgentRecord, event: ReminderEvent): void {
    const state = this.stateOf(agent)
    // A run reminder's count is the run's length; a cycle's is its completed periods. A repeated
    // answer's is its answers, which are no calls: it spends none, and no call after it is its run's.
    const calls = event.level === 'cycle' ? event.count * (cycleTools(event.text)?.length ?? 2) : event.level === 'repeated-text' ? 0 : event.count
    // Calls of seq up to the last counted one are already in; untracked calls between make the
    // seq span wider than the run, hence the bound by the run's own length.
    this.spend(agent, state, event.seq, Math.min(calls, event.seq - state.countedSeq))
    if (event.level === 'error-run') {
      state.erroring = event.tool
      state.erroringSinceRequest = true
    } else if (event.level !== 'cycle' && event.level !== 'repeated-text') state.reminded = true
    if (event.withheld === 'server-loop') {
      state.inServerLoop = true
      state.loopSeq = Math.max(state.loopSeq, event.seq)
    }
    const detector = event.detector ?? 'repeat'
    this.charge(agent, detector === 'repeat' || detector === 'same-tool' ? CHAIN : detector === 'cycle' ? 'cycle' : `${detector}\u0000${event.tool}`, event.count, event)
  }

  /**
   * Adds a run's reported cost. The chain's run goes on until a reset; another detector's run
   * fires again at a higher count (2 × and 3 × its first), so a count no higher is a new run.
   */
  private charge(agent: AgentRecord, key: string, count: number, { wasteMs, wasteTokens }: { wasteMs?: number; wasteTokens?: number }): void {
    if (wasteMs === undefined && wasteTokens === undefined) return
    let cost = this.costs.get(agent)
    if (!cost) this.costs.set(agent, (cost = { ms: 0, tokens: 0, timed: false, tokensSeen: false, runs: new Map() }))
    const ms = wasteMs ?? 0
    const tokens = wasteTokens ?? 0
    const last = cost.runs.get(key)
    const sameRun = last !== undefined && (key === CHAIN || count > last.count)
    cost.ms += sameRun ? Math.max(0, ms - last.ms) : ms
    cost.tokens += sameRun ? Math.max(0, tokens - last.tokens) : tokens
    cost.timed ||= wasteMs !== undefined
    cost.tokensSeen ||= wasteTokens !== undefined
    cost.runs.set(key, { count, ms: Math.max(ms, sameRun ? last.ms : 0), tokens: Math.max(tokens, sameRun ? last.tokens : 0) })
    agent.rev += 1
  }

  private spend(agent: AgentRecord, state: RunState, seq: number, calls: number): void {
    if (calls <= 0) return
    agent.wasted += calls
    state.countedSeq = seq
    agent.rev += 1
  }
}
