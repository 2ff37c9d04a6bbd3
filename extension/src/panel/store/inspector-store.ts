import type { GuardConfig } from '../../../../engine/index.ts'
import type { AgentState, InspectorEvent } from '../../protocol/events.ts'
import type { DropCounts, DropReason, TabBatch } from '../../protocol/messages.ts'
import { redactUrl } from '../../protocol/redact-url.ts'
import { AgentRegistry, type AgentTreeRow } from './agent-registry.ts'
import { BoundedLog } from './bounded-log.ts'
import { AgentRows, EntryLog } from './entry-log.ts'
import type { ConnectionState } from './connection-state.ts'
import type { FaultRecord } from './fault-record.ts'
import { redactedBatch, redactedEvent } from './redacted.ts'
import { ReplayGuard } from './replay-guard.ts'
import { faultBytes } from './retained-bytes.ts'
import { parseSession, type ImportResult, type SessionFile } from './session-file.ts'
import { NO_FILTER, sameFilter, type TimelineFilter } from './timeline-filter.ts'
import type { AgentKey, AgentRecord, TimelineEntry, TimelineEvent } from './timeline-entry.ts'
import { LogView, type TimelineView } from './timeline-view.ts'
import { CycleMarks } from './cycle-marks.ts'
import { WasteMeter } from './waste-meter.ts'
import { replayWhatIf, type WhatIfReport } from './what-if.ts'

interface InspectorStoreOptions {
  /** Timeline rows kept across all agents; the oldest fall off first. */
  readonly maxEntries?: number
  /**
   * Estimated bytes of everything retained (rows, faults, replay fingerprints: see
   * retained-bytes.ts); past it the oldest rows fall off first, then the oldest faults.
   */
  readonly maxBytes?: number
  readonly maxAgents?: number
  /** Agents one subframe may hold; the top frame is bounded by `maxAgents` alone. */
  readonly maxAgentsPerFrame?: number
  readonly maxFaults?: number
  readonly maxTools?: number
  readonly preserveLog?: boolean
}

interface IngestOptions {
  /**
   * The batch may repeat events already recorded (the service worker's buffered history after a
   * reconnect): recorded ones are recognised and skipped.
   */
  readonly replayed?: boolean
}

interface InspectorStats {
  /** Timeline rows held, and calls among them. */
  readonly entries: number
  /** Estimated bytes retained, as `maxBytes` counts them. */
  readonly bytes: number
  readonly calls: number
  /** Rows that fell off the front (row cap or byte budget). */
  readonly discarded: number
  /** Events refused because their agent was over the agent limits (in all, or of its frame). */
  readonly refused: number
  /** Rows not recorded because recording was paused. */
  readonly notRecorded: number
  /** Live events set aside while an imported session was shown. */
  readonly setAside: number
  /** The service worker's buffer had already trimmed the oldest history when the panel subscribed. */
  readonly historyTruncated: boolean
}

/**
 * The panel's state, built from inspector events. Framework-free: components subscribe and read.
 * Ingestion costs O(events in the batch); views catch up lazily when read.
 */
export interface InspectorStore {
  subscribe(listener: () => void): () => void
  /** Increases on every change. */
  readonly version: number

  ingest(batch: TabBatch, options?: IngestOptions): void
  /** The service worker's buffered history, sent on every subscribe. */
  ingestHistory(batches: readonly TabBatch[], truncated: boolean, options?: IngestOptions): void
  /** Drop totals reported for the tab by the relay and the router. */
  setDrops(drops: DropCounts): void
  /** A message the panel itself refused. */
  countDrop(reason: DropReason): void
  setConnection(state: ConnectionState): void

  readonly paused: boolean
  setPaused(paused: boolean): void
  readonly preserveLog: boolean
  setPreserveLog(preserve: boolean): void
  readonly filter: TimelineFilter
  setFilter(filter: TimelineFilter): void
  /** Clears the timeline, faults and counters; agents live on the current page stay listed. Leaves an imported session for live. */
  clear(): void
  /**
   * True while an imported session is shown: live events (a page load included) are set aside
   * and change nothing of it, until `backToLive`.
   */
  readonly imported: boolean
  /** Leaves an imported session: everything is emptied, and live events are recorded again. */
  backToLive(): void

  agents(): readonly AgentTreeRow[]
  agent(key: AgentKey): AgentRecord | undefined
  /** False for agents of an earlier page load (kept by preserve-log). */
  isCurrent(record: AgentRecord): boolean
  /** The filtered rows of one agent, or of every agent (null). */
  timeline(agent: AgentKey | null): TimelineView
  /** True for a recorded call that belongs to a cycle the guard reminded about. */
  inCycle(entry: TimelineEntry): boolean
  /** Tool names seen, sorted. */
  tools(): readonly string[]
  /** The config the page reports in force; undefined until it does. */
  config(): GuardConfig | undefined
  faults(): readonly FaultRecord[]
  drops(): DropCounts
  stats(): InspectorStats
  connection(): ConnectionState
  /** The URL of the inspected page's top frame, when known. */
  pageUrl(): string | undefined

  /** The recorded session as plain data: what `exportSession` writes. */
  session(): SessionFile
  exportSession(): string
  /** Replaces the session with a file's; on any error keeps the current one untouched. */
  importSession(text: string): ImportResult
  /** Replays the recorded calls through a fresh engine guard running `config`. */
  whatIf(config: GuardConfig): WhatIfReport
}

const DEFAULTS = { maxEntries: 200_000, maxBytes: 64 * 1024 * 1024, maxAgents: 2_000, maxAgentsPerFrame: 50, maxFaults: 200, maxTools: 1_000 } as const

/** Each frame's page-load count: agents are keyed by it, so a reloaded frame's ids start afresh. */
interface FrameState {
  pageLoad: number
  url: string
}

export function createInspectorStore(options: InspectorStoreOptions = {}): InspectorStore {
  const limits = { ...DEFAULTS, ...options }
  const listeners = new Set<() => void>()
  const registry = new AgentRegistry(limits)
  const replayGuard = new ReplayGuard(50_000)
  const frames = new Map<number, FrameState>()
  const remoteDrops: Partial<Record<DropReason, number>> = {}
  const localDrops: Partial<Record<DropReason, number>> = {}
  const toolCounts = new Map<string, number>()
  let log = new EntryLog()
  let waste = new WasteMeter()
  let cycles = new CycleMarks()
  let agentLogs = new Map<AgentKey, AgentRows>()
  let faults = new BoundedLog<FaultRecord>()
  let faultsHeld = 0
  let config: GuardConfig | undefined
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
  let sortedTools: readonly string[] | undefined

  function changed(): void {
    version += 1
    for (const listener of listeners) listener()
  }

  function frameOf(frameId: number, url: string): FrameState {
    let frame = frames.get(frameId)
    if (!frame) frames.set(frameId, (frame = { pageLoad: 0, url }))
    return frame
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
      if (toolCounts.size < limits.maxTools || toolCounts.has(event.tool)) {
        if (!toolCounts.has(event.tool)) sortedTools = undefined
        toolCounts.set(event.tool, (toolCounts.get(event.tool) ?? 0) + 1)
      }
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

  const retainedBytes = (): number => log.bytes + faultsHeld + replayGuard.bytes

  /** Drops the oldest rows past the row cap or the byte budget, then the oldest faults if still over. */
  function evict(): void {
    while (log.size > limits.maxEntries || (log.size > 0 && retainedBytes() > limits.maxBytes)) {
      const agent = log.agent(log.start) as AgentKey | null
      const event = log.event(log.start)!
      log.shift()
      if (agent !== null) agentLogs.get(agent)?.positions.shift()
      if (event.type === 'call') calls -= 1
      discarded += 1
    }
    while (faults.size > 0 && retainedBytes() > limits.maxBytes) shiftFault()
  }

  /** Forgets every recorded row, fault and counter. */
  function emptyLog(): void {
    log = new EntryLog()
    agentLogs = new Map()
    faults = new BoundedLog()
    faultsHeld = 0
    toolCounts.clear()
    waste = new WasteMeter()
    cycles = new CycleMarks()
    sortedTools = undefined
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

  function apply(frameId: number, url: string, event: InspectorEvent, replayed: boolean): void {
    // Fingerprint every event that lacks a seq, so a later replay of it is recognised.
    if (replayGuard.repeat(frameId, event) && replayed) return
    if (event.type === 'page-load') {
      if (frameId === 0 && !preserveLog) startOver()
      else {
        const frame = frames.get(frameId)
        if (frame) frame.pageLoad += 1
      }
      frameOf(frameId, event.url).url = event.url
      if (frameId === 0) record(null, frameId, event)
      return
    }
    const { pageLoad } = frameOf(frameId, url)
    switch (event.type) {
      case 'agent':
        if (!registry.describe(frameId, pageLoad, event.agent, event.at)) refused += 1
        return
      case 'config':
        // The config in force on the page is the top frame's: a subframe runs its own guard.
        if (frameId === 0) config = event.config
        return
      case 'snapshot':
        if (frameId === 0) config = event.config
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

  function ingestBatch(received: TabBatch, replayed: boolean): void {
    const batch = redactedBatch(received)
    for (const event of batch.events) apply(batch.frameId, batch.url, event, replayed)
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
      config = undefined
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
    tools() {
      sortedTools ??= [...toolCounts.keys()].sort()
      return sortedTools
    },
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

    session() {
      return {
        format: 'repeat-tool-guard/session',
        version: 1,
        config: config ?? null,
        frames: [...frames].map(([frameId, frame]) => ({ frameId, pageLoad: frame.pageLoad, url: redactUrl(frame.url) })),
        agents: [...registry.values()].map(exportAgent),
        entries: [...log].map(redactedEntry),
        faults: [...faults],
        drops: store.drops(),
        discarded,
      }
    },
    exportSession: () => JSON.stringify(store.session()),
    importSession(text) {
      const parsed = parseSession(text, limits)
      if (!parsed.ok) return parsed
      const file = parsed.session
      startOver()
      for (const frame of file.frames) frames.set(frame.frameId, { pageLoad: frame.pageLoad, url: redactUrl(frame.url) })
      registry.restore(file.agents.map((agent) => ({ ...agent, wasted: 0, rev: 0 })))
      for (const entry of file.entries) {
        const event = redactedEvent(entry.event)
        pushRow(entry.agent, entry.frameId, event)
        const agent = entry.agent === null ? undefined : registry.get(entry.agent)
        if (agent) measure(agent, event)
        if (entry.event.type === 'call') {
          calls += 1
          toolCounts.set(entry.event.tool, (toolCounts.get(entry.event.tool) ?? 0) + 1)
        }
      }
      for (const fault of file.faults) pushFault(fault)
      config = file.config ?? undefined
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
    whatIf: (whatIfConfig) => replayWhatIf(log, whatIfConfig),
  }
  return store
}

/** Rows were redacted when they came in; an export checks again, as it is what leaves the panel. */
function redactedEntry(entry: TimelineEntry): TimelineEntry {
  const event = redactedEvent(entry.event)
  return event === entry.event ? entry : { ...entry, event }
}

function exportAgent(agent: AgentRecord): SessionFile['agents'][number] {
  const { key, frameId, pageLoad, descriptor, parentKey, tool, args, count, nextThreshold, calls, reminders, lastSeq, lastReminderSeq, firstAt, lastAt } = agent
  return {
    key,
    frameId,
    pageLoad,
    descriptor,
    ...(parentKey === undefined ? {} : { parentKey }),
    ...(tool === undefined ? {} : { tool }),
    ...(args === undefined ? {} : { args }),
    count,
    nextThreshold,
    calls,
    reminders,
    lastSeq,
    lastReminderSeq,
    firstAt,
    lastAt,
  }
}
