import type { AgentDescriptor, AgentState, PanelEvent } from '../../protocol/events.ts'
import { agentBytes } from './retained-bytes.ts'
import { agentKey, type AgentKey, type AgentRecord } from './timeline-entry.ts'

type CallEvent = Extract<PanelEvent, { type: 'call' }>
type ResetEvent = Extract<PanelEvent, { type: 'reset' }>

/** One row of the agent tree: subagents follow their parent, one level deeper. */
export interface AgentTreeRow {
  readonly record: AgentRecord
  readonly depth: number
  readonly children: number
}

interface AgentLimits {
  readonly maxAgents: number
  /** Agents one subframe may hold, across the page loads kept. */
  readonly maxAgentsPerFrame: number
}

/**
 * Every agent the panel has seen, in first-seen order, bounded to `maxAgents`. A subframe holds at
 * most `maxAgentsPerFrame`, and subframes together at most half of `maxAgents`: frames (an ad, an
 * embedded page) cannot crowd out the agents of the page itself.
 */
export class AgentRegistry {
  private readonly records = new Map<AgentKey, AgentRecord>()
  private readonly perFrame = new Map<number, number>()
  private inSubframes = 0
  /** Each agent's estimated bytes as last counted, and their sum (retained-bytes.ts). */
  private readonly charged = new Map<AgentKey, number>()
  private held = 0
  private treeCache: { version: number; rows: readonly AgentTreeRow[] } | undefined
  /** Bumps when an agent is added or its identity (label, parent) changes: the tree depends on it. */
  private structure = 0

  constructor(private readonly limits: AgentLimits) {}

  get size(): number {
    return this.records.size
  }

  /** What the records hold, as the panel's byte budget counts it. */
  get bytes(): number {
    return this.held
  }

  /** True while an agent of `frameId` is listed. */
  holds(frameId: number): boolean {
    return (this.perFrame.get(frameId) ?? 0) > 0
  }

  get(key: AgentKey): AgentRecord | undefined {
    return this.records.get(key)
  }

  values(): IterableIterator<AgentRecord> {
    return this.records.values()
  }

  /** The agent's record, created from what its id tells when no `agent` event was seen; undefined when full. */
  ensure(frameId: number, pageLoad: number, agentId: string, at: number): AgentRecord | undefined {
    const key = agentKey(frameId, pageLoad, agentId)
    const known = this.records.get(key)
    if (known) return known
    const kind = agentId.startsWith('wire:') ? 'wire' : agentId.startsWith('webmcp:') ? 'webmcp' : 'hook'
    return this.add({ key, frameId, pageLoad, descriptor: { id: agentId, kind, label: agentId } }, at)
  }

  describe(frameId: number, pageLoad: number, descriptor: AgentDescriptor, at: number): AgentRecord | undefined {
    const key = agentKey(frameId, pageLoad, descriptor.id)
    const parentKey = descriptor.parentId === undefined ? undefined : agentKey(frameId, pageLoad, descriptor.parentId)
    const known = this.records.get(key)
    if (!known) return this.add({ key, frameId, pageLoad, descriptor, parentKey }, at)
    if (!sameDescriptor(known.descriptor, descriptor)) {
      known.descriptor = descriptor
      known.parentKey = parentKey
      known.rev += 1
      this.structure += 1
      this.count(known)
    }
    return known
  }

  /** The chain state a call leaves behind (kept current even while recording is paused). */
  applyChain(record: AgentRecord, event: CallEvent): void {
    if (event.tracked) {
      record.tool = event.tool
      record.args = event.args
    }
    record.count = event.count
    record.nextThreshold = event.nextThreshold
    record.lastSeq = Math.max(record.lastSeq, event.seq)
    this.touch(record, event.at)
    if (event.tracked) this.count(record)
  }

  /** A call recorded in the timeline. */
  applyCall(record: AgentRecord, event: CallEvent): void {
    record.calls += 1
    this.applyChain(record, event)
  }

  applyReset(record: AgentRecord, event: ResetEvent): void {
    // A different call resets too, but the call right after it sets the new run.
    if (event.reason === 'prompt') {
      record.tool = undefined
      record.args = undefined
      record.count = 0
      this.count(record)
    }
    this.touch(record, event.at)
  }

  applyReminder(record: AgentRecord, seq: number, at: number, recorded: boolean): void {
    if (recorded) record.reminders += 1
    record.lastReminderSeq = Math.max(record.lastReminderSeq, seq)
    this.touch(record, at)
  }

  /** Merges the chain state a page re-sent after a reconnect. */
  applyState(record: AgentRecord, state: AgentState): void {
    record.tool = state.tool
    record.args = state.args
    record.count = state.count
    record.nextThreshold = state.nextThreshold
    record.rev += 1
    this.count(record)
  }

  touch(record: AgentRecord, at: number): void {
    record.lastAt = Math.max(record.lastAt, at)
    record.rev += 1
  }

  /** Replaces everything with imported records (already validated). */
  restore(records: readonly AgentRecord[]): void {
    this.clear()
    for (const record of records) {
      this.records.set(record.key, record)
      this.counted(record.frameId, 1)
      this.count(record)
    }
  }

  clear(): void {
    this.records.clear()
    this.perFrame.clear()
    this.charged.clear()
    this.held = 0
    this.inSubframes = 0
    this.structure += 1
  }

  /** Forgets the agent seen first (the panel's byte budget needs room); undefined when none is left. */
  forgetOldest(): AgentRecord | undefined {
    const first = this.records.values().next()
    if (first.done) return undefined
    this.remove(first.value)
    this.structure += 1
    return first.value
  }

  /** Keeps only the agents `keep` accepts, their recorded-call counters back at zero. */
  retain(keep: (record: AgentRecord) => boolean): void {
    for (const record of this.records.values()) {
      if (!keep(record)) {
        this.remove(record)
        continue
      }
      record.calls = 0
      record.reminders = 0
      record.wasted = 0
      record.loopSpent = 0
      delete record.cycle
      record.rev += 1
    }
    this.structure += 1
  }

  /**
   * Depth-first, first-seen order. A parent loop (a hostile page can declare one) or a parent the
   * panel never saw makes an agent a root, so every agent appears exactly once.
   */
  tree(): readonly AgentTreeRow[] {
    if (this.treeCache?.version === this.structure) return this.treeCache.rows
    const children = new Map<AgentKey, AgentRecord[]>()
    const roots: AgentRecord[] = []
    for (const record of this.records.values()) {
      const parent = record.parentKey === undefined ? undefined : this.records.get(record.parentKey)
      if (parent && parent !== record) {
        const list = children.get(parent.key)
        if (list) list.push(record)
        else children.set(parent.key, [record])
      } else roots.push(record)
    }
    const rows: AgentTreeRow[] = []
    const placed = new Set<AgentKey>()
    const visit = (start: AgentRecord): void => {
      const stack: { record: AgentRecord; depth: number }[] = [{ record: start, depth: 0 }]
      while (stack.length > 0) {
        const { record, depth } = stack.pop()!
        if (placed.has(record.key)) continue
        placed.add(record.key)
        const kids = children.get(record.key) ?? []
        rows.push({ record, depth, children: kids.length })
        for (let i = kids.length - 1; i >= 0; i--) stack.push({ record: kids[i]!, depth: depth + 1 })
      }
    }
    for (const root of roots) visit(root)
    for (const record of this.records.values()) if (!placed.has(record.key)) visit(record)
    this.treeCache = { version: this.structure, rows }
    return rows
  }

  private add(init: Pick<AgentRecord, 'key' | 'frameId' | 'pageLoad' | 'descriptor' | 'parentKey'>, at: number): AgentRecord | undefined {
    if (!this.hasRoom(init.frameId)) return undefined
    const record: AgentRecord = {
      ...init,
      count: 0,
      nextThreshold: null,
      calls: 0,
      reminders: 0,
      wasted: 0,
      loopSpent: 0,
      lastSeq: 0,
      lastReminderSeq: 0,
      firstAt: at,
      lastAt: at,
      rev: 0,
    }
    if (record.parentKey === undefined) delete record.parentKey
    this.records.set(record.key, record)
    this.counted(record.frameId, 1)
    this.count(record)
    this.structure += 1
    return record
  }

  private remove(record: AgentRecord): void {
    this.records.delete(record.key)
    this.counted(record.frameId, -1)
    this.held -= this.charged.get(record.key) ?? 0
    this.charged.delete(record.key)
  }

  /** Counts the record's texts again after they changed. */
  private count(record: AgentRecord): void {
    const bytes = agentBytes(record)
    this.held += bytes - (this.charged.get(record.key) ?? 0)
    this.charged.set(record.key, bytes)
  }

  private hasRoom(frameId: number): boolean {
    const { maxAgents, maxAgentsPerFrame } = this.limits
    if (this.records.size >= maxAgents) return false
    if (frameId === 0) return true
    return (this.perFrame.get(frameId) ?? 0) < maxAgentsPerFrame && this.inSubframes < Math.floor(maxAgents / 2)
  }

  private counted(frameId: number, delta: number): void {
    this.perFrame.set(frameId, (this.perFrame.get(frameId) ?? 0) + delta)
    if (frameId !== 0) this.inSubframes += delta
  }
}

function sameDescriptor(a: AgentDescriptor, b: AgentDescriptor): boolean {
  return a.kind === b.kind && a.label === b.label && a.parentId === b.parentId && a.format === b.format && a.reach === b.reach
}
