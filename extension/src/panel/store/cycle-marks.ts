// The cycles the guard reminded about, per agent: which calls they covered (highlighted in the
// log) and the latest one's block of tools (drawn by the chain view). Derived from recorded rows.
import type { PanelEvent } from '../../protocol/events.ts'
import { cycleBytes } from './retained-bytes.ts'
import type { AgentKey, AgentRecord, CycleMark } from './timeline-entry.ts'

type CallEvent = Extract<PanelEvent, { type: 'call' }>
type ReminderEvent = Extract<PanelEvent, { type: 'reminder' }>

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
  private held = 0

  /** What the marks hold, as the panel's byte budget counts it (a hostile page can name many tools). */
  get bytes(): number {
    return this.held
  }

  reminder(agent: AgentRecord, event: ReminderEvent): void {
    if (event.level !== 'cycle') return
    const tools = cycleTools(event.text)
    if (!tools) return
    const mark = { tools, periods: event.count, fromSeq: Math.max(1, event.seq - tools.length * event.count + 1), toSeq: event.seq }
    let list = this.marks.get(agent.key)
    if (!list) this.marks.set(agent.key, (list = []))
    // A cycle reminds again at twice and three times `repeats`: the later mark covers the earlier.
    if (list.length > 0 && list[list.length - 1]!.fromSeq >= mark.fromSeq) this.held -= cycleBytes(list.pop()!.tools)
    list.push(mark)
    this.held += cycleBytes(tools)
    if (list.length > MARKS_PER_AGENT) this.held -= cycleBytes(list.shift()!.tools)
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

  /** Forgets an agent's marks: the agent is no longer listed. */
  forget(agent: AgentKey): void {
    for (const mark of this.marks.get(agent) ?? []) this.held -= cycleBytes(mark.tools)
    this.marks.delete(agent)
  }

  /** True when the agent's call `seq` is one of the calls of a cycle it was reminded about. */
  covers(agent: AgentKey, seq: number): boolean {
    return this.marks.get(agent)?.some((mark) => seq >= mark.fromSeq && seq <= mark.toSeq) === true
  }
}
