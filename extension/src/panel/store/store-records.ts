// What the panel's store holds (panel-store.ts composes it with its listeners and views): the rows,
// the agents and frames they belong to, faults, the config, drop totals and the counters the status
// bar shows. Each write here keeps the byte count that the budget reads (retained-bytes.ts).
import { isServerFrame } from './server-frames.ts'
import type { GuardConfig } from '../../../../engine/index.ts'
import type { DropReason } from '../../protocol/messages.ts'
import { AgentRegistry } from './agent-registry.ts'
import { BoundedLog } from './bounded-log.ts'
import { CycleMarks } from './cycle-marks.ts'
import { AgentRows, EntryLog } from './entry-log.ts'
import type { FaultRecord } from './fault-record.ts'
import { FrameTable } from './frame-table.ts'
import { ReplayGuard } from './replay-guard.ts'
import { configBytes, faultBytes } from './retained-bytes.ts'
import type { AgentKey, AgentRecord, TimelineEvent } from './timeline-entry.ts'
import { ToolStats } from './tool-stats.ts'
import { WasteMeter } from './waste-meter.ts'

/** The store's limits, every one set (panel-store.ts fills in the defaults). */
export interface StoreLimits {
  readonly maxEntries: number
  readonly maxBytes: number
  readonly maxAgents: number
  readonly maxAgentsPerFrame: number
  readonly maxFaults: number
  readonly maxTools: number
}

export class StoreRecords {
  readonly registry: AgentRegistry
  readonly replayGuard = new ReplayGuard(50_000)
  readonly frames = new FrameTable()
  readonly remoteDrops: Partial<Record<DropReason, number>> = {}
  readonly localDrops: Partial<Record<DropReason, number>> = {}
  readonly tools: ToolStats
  log = new EntryLog()
  waste = new WasteMeter()
  cycles = new CycleMarks()
  agentLogs = new Map<AgentKey, AgentRows>()
  faults = new BoundedLog<FaultRecord>()
  faultsHeld = 0
  config: GuardConfig | undefined
  configHeld = 0
  sanitized = false
  calls = 0
  discarded = 0
  refused = 0
  notRecorded = 0
  historyTruncated = false
  paused = false

  /** `onEmptied` lets go of what was read from the rows just forgotten (the store's view). */
  constructor(
    readonly limits: StoreLimits,
    private readonly onEmptied: () => void,
  ) {
    this.registry = new AgentRegistry(limits)
    this.tools = new ToolStats(limits.maxTools)
  }

  setConfig(next: GuardConfig | undefined): void {
    this.config = next
    this.configHeld = next === undefined ? 0 : configBytes(next)
  }

  logOf(key: AgentKey): AgentRows {
    let agentLog = this.agentLogs.get(key)
    if (!agentLog) this.agentLogs.set(key, (agentLog = new AgentRows(this.log)))
    return agentLog
  }

  /** Appends a row to the log, and to its agent's rows. */
  pushRow(agent: AgentKey | null, frameId: number, event: TimelineEvent): void {
    const position = this.log.push(agent, frameId, event)
    if (agent !== null) this.logOf(agent).positions.push(position)
  }

  /** Records a live row, unless recording is paused. */
  record(agent: AgentRecord | null, frameId: number, event: TimelineEvent): void {
    if (this.paused) {
      this.notRecorded += 1
      return
    }
    this.pushRow(agent?.key ?? null, frameId, event)
    if (agent) this.measure(agent, event)
    if (event.type === 'call') this.countCall(event.tool)
  }

  countCall(tool: string): void {
    this.calls += 1
    this.tools.add(tool)
  }

  /** Feeds a recorded row to what is derived from rows: the waste meter and the cycle marks. */
  measure(agent: AgentRecord, event: TimelineEvent): void {
    if (event.type === 'call') {
      this.waste.call(agent, event)
      this.cycles.call(agent, event)
    } else if (event.type === 'reset') {
      this.waste.reset(agent, event.reason === 'prompt')
      if (event.reason === 'prompt') this.cycles.end(agent)
    } else if (event.type === 'reminder') {
      this.waste.reminder(agent, event)
      this.cycles.reminder(agent, event)
    } else if (event.type === 'blocked') this.waste.blocked(agent, event)
    else if (event.type === 'request') this.waste.request(agent, event)
  }

  pushFault(fault: FaultRecord): void {
    this.faults.push(fault)
    this.faultsHeld += faultBytes(fault)
    if (this.faults.size > this.limits.maxFaults) this.shiftFault()
  }

  shiftFault(): void {
    this.faultsHeld -= faultBytes(this.faults.shift()!)
  }

  retainedBytes(): number {
    const { log, faultsHeld, replayGuard, frames, registry, cycles, tools, configHeld } = this
    return log.bytes + faultsHeld + replayGuard.bytes + frames.bytes + registry.bytes + cycles.bytes + tools.bytes + configHeld
  }

  /** Drops the oldest row; false when none is left. */
  forgetRow(): boolean {
    const agent = this.log.agent(this.log.start) as AgentKey | null | undefined
    const event = this.log.event(this.log.start)
    if (event === undefined) return false
    this.log.shift()
    if (agent) this.agentLogs.get(agent)?.positions.shift()
    if (event.type === 'call') {
      this.calls -= 1
      this.tools.remove(event.tool)
    }
    this.discarded += 1
    return true
  }

  /** Forgets every recorded row, fault and counter. */
  emptyLog(): void {
    this.log = new EntryLog()
    this.agentLogs = new Map()
    this.faults = new BoundedLog()
    this.faultsHeld = 0
    this.tools.clear()
    this.waste = new WasteMeter()
    this.cycles = new CycleMarks()
    this.calls = 0
    this.discarded = 0
    this.refused = 0
    this.notRecorded = 0
    this.onEmptied()
  }

  /** A new top-level document without preserve-log: the old page's agents are gone with it. */
  startOver(): void {
    this.emptyLog()
    this.frames.clear()
    this.registry.clear()
  }

  /**
   * A new document in the top frame: the page's frames, agents and rows go; the Node processes'
   * stay, rows too, in their order (they did not reload with the page: docs/node-bridge.md, "In
   * the panel"). So a page load that reaches the panel after a process's events takes none of them.
   */
  startPageOver(): void {
    const kept = [...this.log].filter((entry) => isServerFrame(entry.frameId))
    this.emptyLog()
    for (const [frameId] of [...this.frames.entries()]) if (!isServerFrame(frameId)) this.frames.forget(frameId)
    this.registry.retain((agent) => isServerFrame(agent.frameId))
    for (const { agent, frameId, event } of kept) {
      this.pushRow(agent, frameId, event)
      const record = agent === null ? undefined : this.registry.get(agent)
      if (record) this.measure(record, event)
      if (event.type === 'call') this.countCall(event.tool)
    }
  }

  /** Forgets the service worker's drop totals, which it sends again on every subscribe. */
  clearRemoteDrops(): void {
    for (const key of Object.keys(this.remoteDrops) as DropReason[]) delete this.remoteDrops[key]
  }

  clearDrops(): void {
    this.clearRemoteDrops()
    for (const key of Object.keys(this.localDrops) as DropReason[]) delete this.localDrops[key]
  }

  /** The totals of the service worker's drops and the panel's own. */
  drops(): Partial<Record<DropReason, number>> {
    const total: Partial<Record<DropReason, number>> = { ...this.remoteDrops }
    for (const [reason, n] of Object.entries(this.localDrops) as [DropReason, number][]) total[reason] = (total[reason] ?? 0) + n
    return total
  }
}
