// "Export (sanitized)", the panel's default export, as DevTools' Network panel sanitizes a HAR:
// the session without the texts a page's tools were given or gave back, which hold what the user
// typed, read or was sent (keys, passwords, personal data). Tool arguments (the calls' and each
// agent's current run), results, the arguments a reminder quotes, and fault texts become their
// length and a keyed hash (sanitize-text.ts). URLs were redacted when they came in. What stays:
// tool names, agent labels, counts, times, reminder levels, the config. It imports as any session
// does; `sanitized: true` tells the panel, whose What-if then compares the calls by their hashes.
import type { PanelEvent } from '../../protocol/events.ts'
import { sanitizedReminderText } from './sanitize-reminder.ts'
import { createTextSanitizer, type TextSanitizer } from './sanitize-text.ts'
import type { SessionFile } from './session-file.ts'
import type { TimelineEntry } from './timeline-entry.ts'

export interface SanitizedSession {
  readonly file: SessionFile
  /**
   * How many more bytes the panel's budget counts for the file than for the session it came from:
   * a stand-in is longer than a short text it replaces (retained-bytes.ts counts two a character).
   */
  readonly growth: number
}

export function sanitizedSession(session: SessionFile, sanitize: TextSanitizer = createTextSanitizer()): SanitizedSession {
  let growth = 0
  const replaced = (before: string, after: string): string => {
    growth += 2 * Math.max(0, after.length - before.length)
    return after
  }
  const sanitizedEvent = (event: TimelineEntry['event']): TimelineEntry['event'] => {
    switch (event.type) {
      case 'call': {
        // The stand-in carries the true length, so the event says it is whole.
        const { result, resultLength, ...call } = event
        const args = replaced(event.args, sanitize(event.args, event.argsLength))
        return { ...call, args, argsLength: args.length, ...(result === undefined ? {} : { result: replaced(result, sanitize(result, resultLength)) }) }
      }
      case 'reminder': {
        const { textLength, ...reminder } = event
        return { ...reminder, text: replaced(event.text, sanitizedReminderText(event, sanitize)) } satisfies Extract<PanelEvent, { type: 'reminder' }>
      }
      default:
        return event
    }
  }
  const file: SessionFile = {
    ...session,
    agents: session.agents.map((agent) => (agent.args === undefined ? agent : { ...agent, args: replaced(agent.args, sanitize(agent.args)) })),
    entries: session.entries.map((entry) => ({ ...entry, event: sanitizedEvent(entry.event) })),
    faults: session.faults.map((fault) => ({ ...fault, message: replaced(fault.message, sanitize(fault.message)) })),
    sanitized: true,
  }
  return { file, growth }
}
