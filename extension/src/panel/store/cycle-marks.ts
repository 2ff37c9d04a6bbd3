// The cycles the guard reminded about, per agent: which calls they covered (highlighted in the
// log) and the latest one's block of tools (drawn by the chain view). Derived from recorded rows.
import type { InspectorEvent } from '../../protocol/events.ts'
import type { AgentKey, AgentRecord } from './timeline-entry.ts'

type CallEvent = Extract<InspectorEvent, { type: 'call' }>
type ReminderEvent = Extract<InspectorEvent, { type: 'reminder' }>

export interface CycleMark {
  /** The tools of one period, in order. */
  readonly tools: readonly string[]
  /** Completed periods when the reminder was sent. */
  readonly periods: number
  /** The seq range of the calls the completed periods took. */
  readonly fromSeq: number
  readonly toSeq: number
}

/** Marks kept per agent: enough for any log a person scrolls, bounded against a hostile page. */
const MARKS_PER_AGENT = 64
const CYCLE_LINE = /^- cycle: (.+)$/m

/** The tools of a cycle reminder's period, read from its `- cycle: a -> b -> c` line. */
export function cycleTools(text: string): string[] | undefined {
  const line = CYCLE_LINE.exec(text)
  return line ? line[1]!.split(' -> ') : undefined
}

export class CycleMarks {
  private readonly marks = new Map<AgentKey, CycleMark[]>()

  reminder(agent: AgentRecord, event: ReminderEvent): void {
    if (event.level !== 'cycle') return
    const tools = cycleTools(event.text)
    if (!tools) return
    const mark = { tools, periods: event.count, fromSeq: Math.max(1, event.seq - tools.length * event.count + 1), toSeq: event.seq }
    let list = this.marks.get(agent.key)
    if (!list) this.marks.set(agent.key, (list = []))
    // A cycle reminds again at twice and three times `repeats`: the later mark covers the earlier.
    if (list.length > 0 && list[list.length - 1]!.fromSeq >= mark.fromSeq) list.pop()
    list.push(mark)
    if (list.length > MARKS_PER_AGENT) list.shift()
    agent.cycle = mark
    agent.rev += 1
  }

  /** A tracked call of a tool outside the cycle ended it; a prompt does too. */
  call(agent: AgentRecord, event: CallEvent): void {
    if (agent.cycle && event.tracked && !agent.cycle.tools.includes(event.tool)) this.end(agent)
  }

  end(agent: AgentRecord): void {
    if (agent.cycle === undefined) return
    delete agent.cycle
    agent.rev += 1
  }

  /** True when the agent's call `seq` is one of the calls of a cycle it was reminded about. */
  covers(agent: AgentKey, seq: number): boolean {
    const list = this.marks.get(agent)
    return list !== undefined && list.some((mark) => seq >= mark.fromSeq && seq <= mark.toSeq)
  }
}
