// The panel's store: its records (store-records.ts), fed by event-ingest.ts, kept within budget by
// store-eviction.ts and saved and opened by session-io.ts; here, the listeners, the settings the
// toolbar changes, the imported-session mode and the views components read.
import type { DropReason } from '../../protocol/messages.ts'
import type { ConnectionState } from './connection-state.ts'
import { ingestBatch } from './event-ingest.ts'
import type { PanelStore, PanelStoreOptions, StoreBatch } from './panel-store-api.ts'
import { exportedSession, importedSession, recordsSession } from './session-io.ts'
import { recordsEviction } from './store-eviction.ts'
import { StoreRecords } from './store-records.ts'
import { NO_FILTER, sameFilter } from './timeline-filter.ts'
import type { AgentKey } from './timeline-entry.ts'
import { LogView } from './timeline-view.ts'
import { similarCalls } from './reminder-trigger.ts'
import { replayWhatIf } from './what-if.ts'

export type { TabWaste } from './panel-store-api.ts'
export type { IngestOptions, PanelStoreStats, PanelStore, PanelStoreOptions, SessionContent, StoreBatch } from './panel-store-api.ts'

const DEFAULTS = { maxEntries: 200_000, maxBytes: 64 * 1024 * 1024, maxAgents: 2_000, maxAgentsPerFrame: 50, maxFaults: 200, maxTools: 1_000 } as const

export function createPanelStore(options: PanelStoreOptions = {}): PanelStore {
  const limits = { ...DEFAULTS, ...options }
  const listeners = new Set<() => void>()
  let view: LogView | undefined
  let viewAgent: AgentKey | null = null
  const records = new StoreRecords(limits, () => (view = undefined))
  const evict = recordsEviction(records)
  const settings = { preserveLog: options.preserveLog ?? false }
  let imported = false
  let setAside = 0
  let filter = NO_FILTER
  let connection: ConnectionState = { kind: 'inline' }
  let version = 0
  let epochs = 0

  function changed(): void {
    version += 1
    for (const listener of listeners) listener()
  }

  function setAsideLive(events: number): void {
    setAside += events
    changed()
  }

  function ingestAll(batches: readonly StoreBatch[], replayed: boolean): void {
    for (const batch of batches) ingestBatch(records, settings, batch, replayed)
    evict()
  }

  const store: PanelStore = {
    subscribe(listener) {
      listeners.add(listener)
      return () => void listeners.delete(listener)
    },
    get version() {
      return version
    },

    ingest(batch, ingestOptions = {}) {
      if (imported) return setAsideLive(batch.events.length)
      ingestAll([batch], ingestOptions.replayed ?? false)
      changed()
    },
    ingestHistory(batches, truncated, ingestOptions = {}) {
      if (imported) return setAsideLive(batches.reduce((n, batch) => n + batch.events.length, 0))
      ingestAll(batches, ingestOptions.replayed ?? false)
      records.historyTruncated ||= truncated
      changed()
    },
    setDrops(drops) {
      // The imported session keeps the drops it was saved with; back to live, the service worker
      // sends its totals again.
      if (imported) return
      records.clearRemoteDrops()
      Object.assign(records.remoteDrops, drops)
      changed()
    },
    countDrop(reason: DropReason) {
      if (imported) return setAsideLive(1)
      records.localDrops[reason] = (records.localDrops[reason] ?? 0) + 1
      changed()
    },
    setConnection(state) {
      connection = state
      changed()
    },

    get paused() {
      return records.paused
    },
    setPaused(value) {
      records.paused = value
      changed()
    },
    get preserveLog() {
      return settings.preserveLog
    },
    setPreserveLog(value) {
      settings.preserveLog = value
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
      records.emptyLog()
      records.registry.retain((agent) => store.isCurrent(agent))
      records.historyTruncated = false
      changed()
    },

    get imported() {
      return imported
    },
    backToLive() {
      records.startOver()
      // Forgotten with the session: the live history that follows is all new to this store.
      records.replayGuard.clear()
      records.setConfig(undefined)
      records.sanitized = false
      records.clearDrops()
      records.historyTruncated = false
      imported = false
      setAside = 0
      records.paused = false
      changed()
    },

    agents: () => records.registry.tree(),
    agent: (key) => records.registry.get(key),
    isCurrent: (agent) => (records.frames.get(agent.frameId)?.pageLoad ?? 0) === agent.pageLoad,
    timeline(agent) {
      const source = agent === null ? records.log : (records.agentLogs.get(agent) ?? records.logOf(agent))
      if (!view || viewAgent !== agent || view.source !== source || !sameFilter(view.filter, filter)) {
        view = new LogView(source, filter, ++epochs)
        viewAgent = agent
      }
      view.sync()
      return view
    },
    inCycle: ({ agent, event }) => agent !== null && event.type === 'call' && records.cycles.covers(agent, event.seq),
    wasteOf: (record) => records.waste.costOf(record),
    tabWaste: () => {
      let calls = 0
      let ms: number | undefined
      let tokens: number | undefined
      for (const { record } of records.registry.tree()) {
        const cost = records.waste.costOf(record)
        calls += record.wasted
        if (cost.ms !== undefined) ms = (ms ?? 0) + cost.ms
        if (cost.tokens !== undefined) tokens = (tokens ?? 0) + cost.tokens
      }
      return { calls, ...(ms === undefined ? {} : { ms }), ...(tokens === undefined ? {} : { tokens }) }
    },
    similarCalls: ({ agent, event }) => {
      const rows = agent === null ? undefined : records.agentLogs.get(agent)
      return rows === undefined || event.type !== 'reminder' ? {} : similarCalls(rows, event)
    },
    tools: () => records.tools.names(),
    config: () => records.config,
    faults: () => [...records.faults],
    drops: () => records.drops(),
    stats: () => {
      const { log, calls, discarded, refused, notRecorded, historyTruncated } = records
      return { entries: log.size, bytes: records.retainedBytes(), calls, discarded, refused, notRecorded, setAside, historyTruncated }
    },
    connection: () => connection,
    pageUrl: () => records.frames.get(0)?.url,
    pageOrigin: () => records.frames.get(0)?.origin,
    frameUrl: (frameId) => records.frames.get(frameId)?.url,

    session: () => recordsSession(records),
    exportSession: (content = 'with-arguments') => exportedSession(records, content),
    get maxBytes() {
      return limits.maxBytes
    },
    get sanitized() {
      return records.sanitized
    },
    importSession(text) {
      const parsed = importedSession(records, text, evict)
      if (!parsed.ok) return parsed
      // An imported session is a record to study: live events must not mix into it, nor wipe it.
      records.paused = true
      imported = true
      setAside = 0
      changed()
      return parsed
    },
    whatIf: (whatIfConfig) => replayWhatIf(records.log, whatIfConfig, { sanitized: records.sanitized }),
  }
  return store
}
