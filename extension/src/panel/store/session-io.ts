// The store's records to and from a session file: what the toolbar's export writes (with
// arguments, or sanitized and trimmed to the budget) and what an import puts in their place.
import { redactedEvent, redactedUrl } from './redacted.ts'
import type { SessionContent } from './panel-store-api.ts'
import { sanitizedSession } from './sanitized-session.ts'
import { sessionOf } from './session-export.ts'
import { type ImportResult, parseSession, type SessionFile } from './session-file.ts'
import type { StoreRecords } from './store-records.ts'
import { trimmedSession } from './trimmed-session.ts'

export function recordsSession(records: StoreRecords): SessionFile {
  const { config, frames, registry, log, faults, discarded, sanitized } = records
  return sessionOf({ config, frames, agents: registry.values(), rows: log, faults, drops: records.drops(), discarded, sanitized })
}

export function exportedSession(records: StoreRecords, content: SessionContent): string {
  if (content === 'with-arguments') return JSON.stringify(recordsSession(records))
  // Stand-ins can make the session larger than the budget: the file then holds what a panel
  // opening it keeps (no replay fingerprints), so it imports exactly as written.
  const { file, growth } = sanitizedSession(recordsSession(records))
  return JSON.stringify(trimmedSession(file, records.retainedBytes() - records.replayGuard.bytes + growth - records.limits.maxBytes))
}

/**
 * Replaces the records with a session file's, then lets the budget trim them (`evict`); on a
 * file that does not parse, leaves them untouched.
 */
export function importedSession(records: StoreRecords, text: string, evict: () => void): ImportResult {
  const parsed = parseSession(text, records.limits)
  if (!parsed.ok) return parsed
  const file = parsed.session
  records.startOver()
  for (const frame of file.frames) records.frames.set(frame.frameId, { pageLoad: frame.pageLoad, url: redactedUrl(frame.url) })
  records.registry.restore(file.agents.map((agent) => ({ ...agent, wasted: 0, loopSpent: 0, rev: 0 })))
  for (const entry of file.entries) {
    const event = redactedEvent(entry.event)
    records.pushRow(entry.agent, entry.frameId, event)
    const agent = entry.agent === null ? undefined : records.registry.get(entry.agent)
    if (agent) records.measure(agent, event)
    if (entry.event.type === 'call') records.countCall(entry.event.tool)
  }
  for (const fault of file.faults) records.pushFault(fault)
  records.setConfig(file.config ?? undefined)
  records.sanitized = file.sanitized === true
  records.clearDrops()
  Object.assign(records.remoteDrops, file.drops)
  records.discarded = file.discarded
  evict()
  records.historyTruncated = false
  return parsed
}
