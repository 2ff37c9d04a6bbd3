// How a batch of protocol events becomes the store's records: frames and page loads, agents and
// their state, rows, faults and the config in force. Replays of events already recorded are skipped.
import type { AgentState, PanelEvent } from '../../protocol/events.ts'
import type { StoreBatch } from './panel-store-api.ts'
import { redactedBatch } from './redacted.ts'
import type { StoreRecords } from './store-records.ts'

/** What ingestion needs of the store beyond its records: whether a page load keeps the log. */
export interface IngestSettings {
  readonly preserveLog: boolean
}

function mergeState(records: StoreRecords, frameId: number, pageLoad: number, state: AgentState, at: number): void {
  const { id, kind, label, parentId, format, reach } = state
  const descriptor = { id, kind, label, ...(parentId === undefined ? {} : { parentId }), ...(format === undefined ? {} : { format }), ...(reach === undefined ? {} : { reach }) }
  const agent = records.registry.describe(frameId, pageLoad, descriptor, at)
  if (agent) records.registry.applyState(agent, state)
  else records.refused += 1
}

function apply(records: StoreRecords, settings: IngestSettings, { frameId, url, origin }: StoreBatch, event: PanelEvent, replayed: boolean): void {
  const { frames, registry, paused } = records
  // Fingerprint every event that lacks a seq, so a later replay of it is recognised.
  if (records.replayGuard.repeat(frameId, event) && replayed) return
  if (event.type === 'page-load') {
    if (frameId === 0 && !settings.preserveLog) records.startPageOver()
    else {
      const frame = frames.get(frameId)
      if (frame) frame.pageLoad += 1
    }
    // The batch's address and origin, which the page cannot write, not the event's url, which it can.
    frames.moved(frames.of(frameId, url, origin), url, origin)
    if (frameId === 0) records.record(null, frameId, event)
    return
  }
  const { pageLoad } = frames.of(frameId, url, origin)
  switch (event.type) {
    case 'agent':
      if (!registry.describe(frameId, pageLoad, event.agent, event.at)) records.refused += 1
      return
    case 'config':
      // The config in force on the page is the top frame's: a subframe runs its own guard.
      if (frameId === 0) records.setConfig(event.config)
      return
    case 'snapshot':
      if (frameId === 0) records.setConfig(event.config)
      for (const state of event.agents) mergeState(records, frameId, pageLoad, state, event.at)
      return
    case 'fault':
      records.pushFault({ frameId, at: event.at, message: event.message })
      return
  }
  const agent = registry.ensure(frameId, pageLoad, event.agentId, event.at)
  if (!agent) {
    records.refused += 1
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
  records.record(agent, frameId, event)
}

/** Records every event of a batch, its page-written addresses redacted first (redacted.ts). */
export function ingestBatch(records: StoreRecords, settings: IngestSettings, received: StoreBatch, replayed: boolean): void {
  const batch = redactedBatch(received)
  for (const event of batch.events) apply(records, settings, batch, event, replayed)
}
