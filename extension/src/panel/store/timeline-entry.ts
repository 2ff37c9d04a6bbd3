import type { AgentDescriptor, PanelEvent } from '../../protocol/events.ts'

/** Events that become rows of a timeline; the rest update state (agents, config, faults). */
export type TimelineEvent = Extract<PanelEvent, { type: 'call' | 'reset' | 'reminder' | 'blocked' | 'request' | 'page-load' }>

/**
 * Identifies an agent across frames and page loads: `<frameId>.<page load>:<agent id>`. Agent ids
 * restart on every page load and in every frame, so the page's id alone would merge strangers.
 */
export type AgentKey = string

export interface TimelineEntry {
  /** The agent the event belongs to; null for page loads. */
  readonly agent: AgentKey | null
  readonly frameId: number
  readonly event: TimelineEvent
}

/** A cycle the guard reminded about (kept by cycle-marks.ts). */
export interface CycleMark {
  /** The tools of one period, in order. */
  readonly tools: readonly string[]
  /** Completed periods when the reminder was sent. */
  readonly periods: number
  /** The seq range of the calls the completed periods took. */
  readonly fromSeq: number
  readonly toSeq: number
}

/** What the panel knows about one agent; mutated in place by ingestion, `rev` bumps on change. */
export interface AgentRecord {
  readonly key: AgentKey
  readonly frameId: number
  /** The page load of its frame the agent lived in. */
  readonly pageLoad: number
  descriptor: AgentDescriptor
  parentKey?: AgentKey
  /** The current run: tool and canonical arguments, absent before the first tracked call. */
  tool?: string
  args?: string
  count: number
  nextThreshold: number | null
  calls: number
  reminders: number
  /** Recorded calls spent inside runs or cycles that reached a reminder (see waste-meter.ts). */
  wasted: number
  /**
   * Recorded calls a server's loop made after a reminder fell due in it that the page could not
   * give (withheld `server-loop`): the calls of that run from its first would-remind on (see waste-meter.ts).
   */
  loopSpent: number
  /** The cycle the guard last reminded about, while the agent's calls stay within its tools. */
  cycle?: CycleMark
  /** Highest call `seq` and reminder `seq` recorded, to skip events replayed after a reconnect. */
  lastSeq: number
  lastReminderSeq: number
  firstAt: number
  lastAt: number
  rev: number
}

export function agentKey(frameId: number, pageLoad: number, agentId: string): AgentKey {
  return `${frameId}.${pageLoad}:${agentId}`
}
