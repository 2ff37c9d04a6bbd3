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
import { parseSession, type ImportResult, type SessionFile } from './session-file.ts'
import { NO_FILTER, sameFilter, type TimelineFilter } from './timeline-filter.ts'
import type { AgentKey, AgentRecord, TimelineEntry, TimelineEvent } from './timeline-entry.ts'
import { LogView, type TimelineView } from './timeline-view.ts'
import { replayWhatIf, type WhatIfReport } from './what-if.ts'

interface InspectorStoreOptions {
  /** Timeline rows kept across all agents; the oldest fall off first. */
  readonly maxEntries?: number
  readonly maxAgents?: number
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
  readonly calls: number
  /** Rows that fell off the front (store limits) or were refused (agent limit). */
  readonly discarded: number
  /** Rows not recorded because recording was paused. */
  readonly notRecorded: number
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
  /** Clears the timeline, faults and counters; agents live on the current page stay listed. */
  clear(): void

  agents(): readonly AgentTreeRow[]
  agent(key: AgentKey): AgentRecord | undefined
  /** False for agents of an earlier page load (kept by preserve-log). */
  isCurrent(record: AgentRecord): boolean
  /** The filtered rows of one agent, or of every agent (null). */
  timeline(agent: AgentKey | null): TimelineView
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

const DEFAULTS = { maxEntries: 200_000, maxAgents: 2_000, maxFaults: 200, maxTools: 1_000 } as const

/** Each frame's page-load count: agents are keyed by it, so a reloaded frame's ids start afresh. */
interface FrameState {
  pageLoad: number
  url: string
}

export function createInspectorStore(options: InspectorStoreOptions = {}): InspectorStore {
  const limits = { ...DEFAULTS, ...options }
  const listeners = new Set<() => void>()
  const registry = new AgentRegistry(limits.maxAgents)
  const replayGuard = new ReplayGuard(50_000)
  const frames = new Map<number, FrameState>()
  const remoteDrops: Partial<Record<DropReason, number>> = {}
  const localDrops: Partial<Record<DropReason, number>> = {}
  const toolCounts = new Map<string, number>()
  let log = new EntryLog()
  let agentLogs = new Map<AgentKey, AgentRows>()
  let faults = new BoundedLog<FaultRecord>()
  let config: GuardConfig | undefined
  let calls = 0
  let discarded = 0
  let notRecorded = 0
  let historyTruncated = false
  let paused = false
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
    if (event.type === 'call') {
      calls += 1
      if (toolCounts.size < limits.maxTools || toolCounts.has(event.tool)) {
        if (!toolCounts.has(event.tool)) sortedTools = undefined
        toolCounts.set(event.tool, (toolCounts.get(event.tool) ?? 0) + 1)
      }
    }
  }

  function evict(): void {
    while (log.size > limits.maxEntries) {
      const agent = log.agent(log.start) as AgentKey | null
      const event = log.event(log.start)!
      log.shift()
      if (agent !== null) agentLogs.get(agent)?.positions.shift()
      if (event.type === 'call') calls -= 1
      discarded += 1
    }
  }

  /** Forgets every recorded row, fault and counter. */
  function emptyLog(): void {
    log = new EntryLog()
    agentLogs = new Map()
    faults = new BoundedLog()
    toolCounts.clear()
    sortedTools = undefined
    calls = 0
    discarded = 0
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
        if (!registry.describe(frameId, pageLoad, event.agent, event.at)) discarded += 1
        return
      case 'config':
        config = event.config
        return
      case 'snapshot':
        config = event.config
        for (const state of event.agents) mergeState(frameId, pageLoad, state, event.at)
        return
      case 'fault':
        faults.push({ frameId, at: event.at, message: event.message })
        if (faults.size > limits.maxFaults) faults.shift()
        return
    }
    const agent = registry.ensure(frameId, pageLoad, event.agentId, event.at)
    if (!agent) {
      discarded += 1
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
    }
    record(agent, frameId, event)
  }

  function mergeState(frameId: number, pageLoad: number, state: AgentState, at: number): void {
    const { id, kind, label, parentId, format } = state
    const descriptor = { id, kind, label, ...(parentId === undefined ? {} : { parentId }), ...(format === undefined ? {} : { format }) }
    const agent = registry.describe(frameId, pageLoad, descriptor, at)
    if (agent) registry.applyState(agent, state)
    else discarded += 1
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
      ingestBatch(batch, ingestOptions.replayed ?? false)
      evict()
      changed()
    },
    ingestHistory(batches, truncated, ingestOptions = {}) {
      for (const batch of batches) ingestBatch(batch, ingestOptions.replayed ?? false)
      historyTruncated ||= truncated
      evict()
      changed()
    },
    setDrops(drops) {
      for (const key of Object.keys(remoteDrops) as DropReason[]) delete remoteDrops[key]
      Object.assign(remoteDrops, drops)
      changed()
    },
    countDrop(reason) {
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
      emptyLog()
      registry.retain((agent) => store.isCurrent(agent))
      historyTruncated = false
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
    stats: () => ({ entries: log.size, calls, discarded, notRecorded, historyTruncated }),
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
      registry.restore(file.agents.map((agent) => ({ ...agent, rev: 0 })))
      for (const entry of file.entries) {
        pushRow(entry.agent, entry.frameId, redactedEvent(entry.event))
        if (entry.event.type === 'call') {
          calls += 1
          toolCounts.set(entry.event.tool, (toolCounts.get(entry.event.tool) ?? 0) + 1)
        }
      }
      for (const fault of file.faults) faults.push(fault)
      config = file.config ?? undefined
      for (const key of Object.keys(remoteDrops) as DropReason[]) delete remoteDrops[key]
      for (const key of Object.keys(localDrops) as DropReason[]) delete localDrops[key]
      Object.assign(remoteDrops, file.drops)
      discarded = file.discarded
      historyTruncated = false
      // An imported session is a record to study: live events must not mix into it.
      paused = true
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
