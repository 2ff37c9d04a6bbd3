import type { GuardConfig } from '../../../../engine/index.ts'
import type { AgentState, InspectorEvent } from '../../protocol/events.ts'
import type { DropReason } from '../../protocol/messages.ts'
import { AgentRegistry } from './agent-registry.ts'
import { BoundedLog } from './bounded-log.ts'
import { AgentRows, EntryLog } from './entry-log.ts'
import type { ConnectionState } from './connection-state.ts'
import type { FaultRecord } from './fault-record.ts'
import { FrameTable } from './frame-table.ts'
import type { InspectorStore, InspectorStoreOptions, StoreBatch } from './inspector-store-api.ts'
import { redactedBatch, redactedEvent, redactedUrl } from './redacted.ts'
import { ReplayGuard } from './replay-guard.ts'
import { configBytes, faultBytes } from './retained-bytes.ts'
import { sanitizedSession } from './sanitized-session.ts'
import { sessionOf } from './session-export.ts'
import { trimmedSession } from './trimmed-session.ts'
import { parseSession } from './session-file.ts'
import { evictOverBudget, type BudgetedRecords } from './store-budget.ts'
import { NO_FILTER, sameFilter } from './timeline-filter.ts'
import type { AgentKey, AgentRecord, TimelineEvent } from './timeline-entry.ts'
import { LogView } from './timeline-view.ts'
import { ToolStats } from './tool-stats.ts'
import { CycleMarks } from './cycle-marks.ts'
import { WasteMeter } from './waste-meter.ts'
import { replayWhatIf } from './what-if.ts'

export type { IngestOptions, InspectorStats, InspectorStore, InspectorStoreOptions, SessionContent, StoreBatch } from './inspector-store-api.ts'

const DEFAULTS = { maxEntries: 200_000, maxBytes: 64 * 1024 * 1024, maxAgents: 2_000, maxAgentsPerFrame: 50, maxFaults: 200, maxTools: 1_000 } as const

export function createInspectorStore(options: InspectorStoreOptions = {}): InspectorStore {
  const limits = { ...DEFAULTS, ...options }
  const listeners = new Set<() => void>()
  const registry = new AgentRegistry(limits)
  const replayGuard = new ReplayGuard(50_000)
  const frames = new FrameTable()
  const remoteDrops: Partial<Record<DropReason, number>> = {}
  const localDrops: Partial<Record<DropReason, number>> = {}
  const tools = new ToolStats(limits.maxTools)
  let log = new EntryLog()
  let waste = new WasteMeter()
  let cycles = new CycleMarks()
  let agentLogs = new Map<AgentKey, AgentRows>()
  let faults = new BoundedLog<FaultRecord>()
  let faultsHeld = 0
  let config: GuardConfig | undefined
  let configHeld = 0
  let sanitized = false
  let calls = 0
  let discarded = 0
  let refused = 0
  let notRecorded = 0
  let historyTruncated = false
  let paused = false
  let imported = false
  let setAside = 0
  let preserveLog = options.preserveLog ?? false
  let filter = NO_FILTER
  let connection: ConnectionState = { kind: 'inline' }
  let version = 0
  let epochs = 0
  let view: LogView | undefined
  let viewAgent: AgentKey | null = null

  function changed(): void {
    version += 1
    for (const listener of listeners) listener()
  }

  function setConfig(next: GuardConfig | undefined): void {
    config = next
    configHeld = next === undefined ? 0 : configBytes(next)
  }

  function logOf(key: AgentKey): AgentRows {
    let agentLog = agentLogs.get(key)
    if (!agentLog) agentLogs.set(key, (agentLog = new AgentRows(log)))
    return agentLog
  }

  /** Appends a row to the log, and to its agent's rows. */
  function pushRow(agent: AgentKey | null, frameId: number, event: TimelineEvent): void {
    const position = log.push(agent, frameId, event)
    if (agent !== null) logOf(agent).positions.push(position)
  }

  function record(agent: AgentRecord | null, frameId: number, event: TimelineEvent): void {
    if (paused) {
      notRecorded += 1
      return
    }
    pushRow(agent?.key ?? null, frameId, event)
    if (agent) measure(agent, event)
    if (event.type === 'call') {
      calls += 1
      tools.add(event.tool)
    }
  }

  /** Feeds a recorded row to what is derived from rows: the waste meter and the cycle marks. */
  function measure(agent: AgentRecord, event: TimelineEvent): void {
    if (event.type === 'call') {
      waste.call(agent, event)
      cycles.call(agent, event)
    } else if (event.type === 'reset') {
      waste.reset(agent)
      if (event.reason === 'prompt') cycles.end(agent)
    } else if (event.type === 'reminder') {
      waste.reminder(agent, event)
      cycles.reminder(agent, event)
    }
  }

  function pushFault(fault: FaultRecord): void {
    faults.push(fault)
    faultsHeld += faultBytes(fault)
    if (faults.size > limits.maxFaults) shiftFault()
  }

  function shiftFault(): void {
    faultsHeld -= faultBytes(faults.shift()!)
  }

  const retainedBytes = (): number =>
    log.bytes + faultsHeld + replayGuard.bytes + frames.bytes + registry.bytes + cycles.bytes + tools.bytes + configHeld

  /** Drops the oldest row; false when none is left. */
  function forgetRow(): boolean {
    const agent = log.agent(log.start) as AgentKey | null | undefined
    const event = log.event(log.start)
    if (event === undefined) return false
    log.shift()
    if (agent) agentLogs.get(agent)?.positions.shift()
    if (event.type === 'call') {
      calls -= 1
      tools.remove(event.tool)
    }
    discarded += 1
    return true
  }

  const budgeted: BudgetedRecords = {
    bytes: retainedBytes,
    get fingerprintBytes() {
      return replayGuard.bytes
    },
    forgetIdleFrames: (over) => frames.forgetIdle((frameId) => registry.holds(frameId), over),
    forgetFingerprint: () => replayGuard.forgetOldest(),
    forgetRow,
    forgetFault: () => faults.size > 0 && (shiftFault(), true),
    forgetAgent() {
      const agent = registry.forgetOldest()
      if (!agent) return false
      agentLogs.delete(agent.key)
      cycles.forget(agent.key)
      if (agent.frameId !== 0 && !registry.holds(agent.frameId)) frames.forget(agent.frameId)
      return true
    },
    forgetConfig: () => config !== undefined && (setConfig(undefined), true),
    forgetTopFrame: () => frames.get(0) !== undefined && (frames.forget(0), true),
  }

  /** Drops the oldest rows past the row cap, then whatever the byte budget lets go (store-budget.ts). */
  function evict(): void {
    while (log.size > limits.maxEntries) forgetRow()
    evictOverBudget(budgeted, limits.maxBytes)
  }

  /** Forgets every recorded row, fault and counter. */
  function emptyLog(): void {
    log = new EntryLog()
    agentLogs = new Map()
    faults = new BoundedLog()
    faultsHeld = 0
    tools.clear()
    waste = new WasteMeter()
    cycles = new CycleMarks()
    calls = 0
    discarded = 0
    refused = 0
    notRecorded = 0
    view = undefined
  }

  /** A new top-level document without preserve-log: the old page's agents are gone with it. */
  function startOver(): void {
    emptyLog()
    frames.clear()
    registry.clear()
  }

  function apply({ frameId, url, origin }: StoreBatch, event: InspectorEvent, replayed: boolean): void {
    // Fingerprint every event that lacks a seq, so a later replay of it is recognised.
    if (replayGuard.repeat(frameId, event) && replayed) return
    if (event.type === 'page-load') {
      if (frameId === 0 && !preserveLog) startOver()
      else {
        const frame = frames.get(frameId)
        if (frame) frame.pageLoad += 1
      }
      // The batch's address and origin, which the page cannot write, not the event's url, which it can.
      frames.moved(frames.of(frameId, url, origin), url, origin)
      if (frameId === 0) record(null, frameId, event)
      return
    }
    const { pageLoad } = frames.of(frameId, url, origin)
    switch (event.type) {
      case 'agent':
        if (!registry.describe(frameId, pageLoad, event.agent, event.at)) refused += 1
        return
      case 'config':
        // The config in force on the page is the top frame's: a subframe runs its own guard.
        if (frameId === 0) setConfig(event.config)
        return
      case 'snapshot':
        if (frameId === 0) setConfig(event.config)
        for (const state of event.agents) mergeState(frameId, pageLoad, state, event.at)
        return
      case 'fault':
        pushFault({ frameId, at: event.at, message: event.message })
        return
    }
    const agent = registry.ensure(frameId, pageLoad, event.agentId, event.at)
    if (!agent) {
      refused += 1
      return
    }
    switch (event.type) {
      case 'call':
        if (replayed && event.seq <= agent.lastSeq) return
        if (paused) registry.applyChain(agent, event)
        else registry.applyCall(agent, event)
        break
      case 'reminder':
        if (replayed && event.seq <= agent.lastReminderSeq) return
        registry.applyReminder(agent, event.seq, event.at, !paused)
        break
      case 'reset':
        registry.applyReset(agent, event)
        break
      case 'request':
        registry.touch(agent, event.at)
        break
      case 'blocked':
        registry.touch(agent, event.at)
        break
    }
    record(agent, frameId, event)
  }

  function mergeState(frameId: number, pageLoad: number, state: AgentState, at: number): void {
    const { id, kind, label, parentId, format, reach } = state
    const descriptor = { id, kind, label, ...(parentId === undefined ? {} : { parentId }), ...(format === undefined ? {} : { format }), ...(reach === undefined ? {} : { reach }) }
    const agent = registry.describe(frameId, pageLoad, descriptor, at)
    if (agent) registry.applyState(agent, state)
    else refused += 1
  }

  function setAsideLive(events: number): void {
    setAside += events
    changed()
  }

  function ingestBatch(received: StoreBatch, replayed: boolean): void {
    const batch = redactedBatch(received)
    for (const event of batch.events) apply(batch, event, replayed)
  }

  const store: InspectorStore = {
    subscribe(listener) {
      listeners.add(listener)
      return () => void listeners.delete(listener)
    },
    get version() {
      return version
    },

    ingest(batch, ingestOptions = {}) {
      if (imported) return setAsideLive(batch.events.length)
      ingestBatch(batch, ingestOptions.replayed ?? false)
      evict()
      changed()
    },
    ingestHistory(batches, truncated, ingestOptions = {}) {
      if (imported) return setAsideLive(batches.reduce((n, batch) => n + batch.events.length, 0))
      for (const batch of batches) ingestBatch(batch, ingestOptions.replayed ?? false)
      historyTruncated ||= truncated
      evict()
      changed()
    },
    setDrops(drops) {
      // The imported session keeps the drops it was saved with; back to live, the service worker
      // sends its totals again.
      if (imported) return
      for (const key of Object.keys(remoteDrops) as DropReason[]) delete remoteDrops[key]
      Object.assign(remoteDrops, drops)
      changed()
    },
    countDrop(reason) {
      if (imported) return setAsideLive(1)
      localDrops[reason] = (localDrops[reason] ?? 0) + 1
      changed()
    },
    setConnection(state) {
      connection = state
      changed()
    },

    get paused() {
      return paused
    },
    setPaused(value) {
      paused = value
      changed()
    },
    get preserveLog() {
      return preserveLog
    },
    setPreserveLog(value) {
      preserveLog = value
      changed()
    },
    get filter() {
      return filter
    },
    setFilter(value) {
      filter = { tool: value.tool, text: value.text }
      changed()
    },
    clear() {
      if (imported) return store.backToLive()
      emptyLog()
      registry.retain((agent) => store.isCurrent(agent))
      historyTruncated = false
      changed()
    },

    get imported() {
      return imported
    },
    backToLive() {
      startOver()
      // Forgotten with the session: the live history that follows is all new to this store.
      replayGuard.clear()
      setConfig(undefined)
      sanitized = false
      for (const key of Object.keys(remoteDrops) as DropReason[]) delete remoteDrops[key]
      for (const key of Object.keys(localDrops) as DropReason[]) delete localDrops[key]
      historyTruncated = false
      imported = false
      setAside = 0
      paused = false
      changed()
    },

    agents: () => registry.tree(),
    agent: (key) => registry.get(key),
    isCurrent: (agent) => (frames.get(agent.frameId)?.pageLoad ?? 0) === agent.pageLoad,
    timeline(agent) {
      const source = agent === null ? log : (agentLogs.get(agent) ?? logOf(agent))
      if (!view || viewAgent !== agent || view.source !== source || !sameFilter(view.filter, filter)) {
        view = new LogView(source, filter, ++epochs)
        viewAgent = agent
      }
      view.sync()
      return view
    },
    inCycle: ({ agent, event }) => agent !== null && event.type === 'call' && cycles.covers(agent, event.seq),
    tools: () => tools.names(),
    config: () => config,
    faults: () => [...faults],
    drops() {
      const total: Partial<Record<DropReason, number>> = { ...remoteDrops }
      for (const [reason, n] of Object.entries(localDrops) as [DropReason, number][]) total[reason] = (total[reason] ?? 0) + n
      return total
    },
    stats: () => ({ entries: log.size, bytes: retainedBytes(), calls, discarded, refused, notRecorded, setAside, historyTruncated }),
    connection: () => connection,
    pageUrl: () => frames.get(0)?.url,
    pageOrigin: () => frames.get(0)?.origin,

    session: () =>
      sessionOf({ config, frames, agents: registry.values(), rows: log, faults, drops: store.drops(), discarded, sanitized }),
    exportSession(content = 'with-arguments') {
      if (content === 'with-arguments') return JSON.stringify(store.session())
      // Stand-ins can make the session larger than the budget: the file then holds what a panel
      // opening it keeps (no replay fingerprints), so it imports exactly as written.
      const { file, growth } = sanitizedSession(store.session())
      return JSON.stringify(trimmedSession(file, retainedBytes() - replayGuard.bytes + growth - limits.maxBytes))
    },
    get maxBytes() {
      return limits.maxBytes
    },
    get sanitized() {
      return sanitized
    },
    importSession(text) {
      const parsed = parseSession(text, limits)
      if (!parsed.ok) return parsed
      const file = parsed.session
      startOver()
      for (const frame of file.frames) frames.set(frame.frameId, { pageLoad: frame.pageLoad, url: redactedUrl(frame.url) })
      registry.restore(file.agents.map((agent) => ({ ...agent, wasted: 0, rev: 0 })))
      for (const entry of file.entries) {
        const event = redactedEvent(entry.event)
        pushRow(entry.agent, entry.frameId, event)
        const agent = entry.agent === null ? undefined : registry.get(entry.agent)
        if (agent) measure(agent, event)
        if (entry.event.type === 'call') {
          calls += 1
          tools.add(entry.event.tool)
        }
      }
      for (const fault of file.faults) pushFault(fault)
      setConfig(file.config ?? undefined)
      sanitized = file.sanitized === true
      for (const key of Object.keys(remoteDrops) as DropReason[]) delete remoteDrops[key]
      for (const key of Object.keys(localDrops) as DropReason[]) delete localDrops[key]
      Object.assign(remoteDrops, file.drops)
      discarded = file.discarded
      evict()
      historyTruncated = false
      // An imported session is a record to study: live events must not mix into it, nor wipe it.
      paused = true
      imported = true
      setAside = 0
      changed()
      return parsed
    },
    whatIf: (whatIfConfig) => replayWhatIf(log, whatIfConfig, { sanitized }),
  }
  return store
}
