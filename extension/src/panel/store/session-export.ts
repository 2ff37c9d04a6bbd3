// The store's records as a session file (session-file.ts), checked once more on the way out.
import type { GuardConfig } from '../../../../engine/index.ts'
import type { DropCounts } from '../../protocol/messages.ts'
import type { FaultRecord } from './fault-record.ts'
import type { FrameTable } from './frame-table.ts'
import { redactedEvent, redactedUrl } from './redacted.ts'
import type { SessionFile } from './session-file.ts'
import type { AgentRecord, TimelineEntry } from './timeline-entry.ts'

interface SessionRecords {
  readonly config: GuardConfig | undefined
  readonly frames: FrameTable
  readonly agents: Iterable<AgentRecord>
  readonly rows: Iterable<TimelineEntry>
  readonly faults: Iterable<FaultRecord>
  readonly drops: DropCounts
  readonly discarded: number
  readonly sanitized: boolean
}

export function sessionOf(records: SessionRecords): SessionFile {
  return {
    format: 'repeat-tool-guard/session',
    version: 1,
    config: records.config ?? null,
    frames: [...records.frames.entries()].map(([frameId, frame]) => ({ frameId, pageLoad: frame.pageLoad, url: redactedUrl(frame.url) })),
    agents: [...records.agents].map(exportAgent),
    entries: [...records.rows].map(redactedEntry),
    faults: [...records.faults],
    drops: records.drops,
    discarded: records.discarded,
    ...(records.sanitized ? { sanitized: true } : {}),
  }
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
