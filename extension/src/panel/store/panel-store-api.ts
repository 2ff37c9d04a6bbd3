// What the panel's store offers its components and embedders (panel-store.ts makes one).
import type { GuardConfig } from '../../../../engine/index.ts'
import type { DropCounts, DropReason, TabBatch } from '../../protocol/messages.ts'
import type { AgentTreeRow } from './agent-registry.ts'
import type { ConnectionState } from './connection-state.ts'
import type { FaultRecord } from './fault-record.ts'
import type { SimilarCalls } from './reminder-trigger.ts'
import type { ImportResult, SessionFile } from './session-file.ts'
import type { TimelineFilter } from './timeline-filter.ts'
import type { AgentKey, AgentRecord, TimelineEntry } from './timeline-entry.ts'
import type { TimelineView } from './timeline-view.ts'
import type { WasteCost } from './waste-meter.ts'
import type { WhatIfReport } from './what-if.ts'

export interface TabWaste extends WasteCost {
  readonly calls: number
}

/** What an export holds: everything, or arguments, results and fault texts as stand-ins. */
export type SessionContent = 'with-arguments' | 'sanitized'

/**
 * A batch as the store takes it: from the service worker, tagged with the origin the browser named
 * for its frame; from the playground, which has no browser to name one (no zero-code switch there).
 */
export type StoreBatch = Omit<TabBatch, 'origin'> & { readonly origin?: string }

export interface PanelStoreOptions {
  /** Timeline rows kept across all agents; the oldest fall off first. */
  readonly maxEntries?: number
  /**
   * Estimated bytes of everything retained (frames, agents, rows, faults, tool names, cycle marks,
   * replay fingerprints, the config: see retained-bytes.ts); past it the oldest records go, in the
   * order `evictOverBudget` (store-budget.ts) gives.
   */
  readonly maxBytes?: number
  readonly maxAgents?: number
  /** Agents one subframe may hold; the top frame is bounded by `maxAgents` alone. */
  readonly maxAgentsPerFrame?: number
  readonly maxFaults?: number
  readonly maxTools?: number
  readonly preserveLog?: boolean
}

export interface IngestOptions {
  /**
   * The batch may repeat events already recorded (the service worker's buffered history after a
   * reconnect): recorded ones are recognised and skipped.
   */
  readonly replayed?: boolean
}

export interface PanelStoreStats {
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
 * The panel's state, built from panel events. Framework-free: components subscribe and read.
 * Ingestion costs O(events in the batch); views catch up lazily when read.
 */
export interface PanelStore {
  subscribe(listener: () => void): () => void
  /** Increases on every change. */
  readonly version: number

  ingest(batch: StoreBatch, options?: IngestOptions): void
  /** The service worker's buffered history, sent on every subscribe. */
  ingestHistory(batches: readonly StoreBatch[], truncated: boolean, options?: IngestOptions): void
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
  /** The time and tokens an agent's reminded runs cost (`wasteMs`, `wasteTokens`); its calls are `record.wasted`. */
  wasteOf(record: AgentRecord): WasteCost
  /** The tab's waste: every agent's calls, time and tokens; `tokens` only when some event carried them. */
  tabWaste(): TabWaste
  /** A near-repeat reminder's firing call and the call before it, as far as the panel still holds them. */
  similarCalls(entry: TimelineEntry): SimilarCalls
  /** The tools of the calls held, sorted. */
  tools(): readonly string[]
  /** The config the page reports in force; undefined until it does. */
  config(): GuardConfig | undefined
  faults(): readonly FaultRecord[]
  drops(): DropCounts
  stats(): PanelStoreStats
  connection(): ConnectionState
  /** The URL of the inspected page's top frame, when known. */
  pageUrl(): string | undefined
  /**
   * The top frame's origin as the browser named it to the service worker (`null` when opaque), when
   * known: what the zero-code switch switches, never an address the page wrote.
   */
  pageOrigin(): string | undefined
  /** The address a frame's batches came with; a Node process's line for its frame (server-frames.ts). */
  frameUrl(frameId: number): string | undefined

  /** The recorded session as plain data: what `exportSession` writes with arguments. */
  session(): SessionFile
  /**
   * The session file: with arguments (the default here), or sanitized, its arguments, results and
   * fault texts replaced by their length and a hash (sanitized-session.ts; the toolbar's default).
   */
  exportSession(content?: SessionContent): string
  /** Replaces the session with a file's; on any error keeps the current one untouched. */
  importSession(text: string): ImportResult
  /** The byte budget: it sets the largest session file the store opens (session-size.ts). */
  readonly maxBytes: number
  /** True while an imported session that was exported sanitized is shown. */
  readonly sanitized: boolean
  /** Replays the recorded calls through a fresh engine guard running `config` (by their hashes in a sanitized session). */
  whatIf(config: GuardConfig): WhatIfReport
}
