// What a screen reader announces for a timeline row: the row read as one sentence, with the head
// of a long text (the row itself holds the full text).
import { headOf } from '../../../../engine/safe-reading.ts'
import type { TimelineEvent } from '../store/timeline-entry.ts'
import { preview } from './format.ts'

const HEAD_CHARS = 120
const RESET_CAUSE = { prompt: 'a user prompt', 'different-call': 'a different call', 'result-changed': 'a changed result' } as const

export function timelineRowLabel(event: TimelineEvent, agentLabel: string | undefined): string {
  const by = agentLabel === undefined ? '' : `${agentLabel}: `
  switch (event.type) {
    case 'call': {
      const flags = [!event.tracked && 'transparent', event.denied && 'denied', event.isError && 'error'].filter(Boolean)
      const next = event.nextThreshold === null ? '' : `, next reminder at ${event.nextThreshold}`
      return `${by}call ${event.seq}, ${event.tool} ${preview(event.args, HEAD_CHARS)}, run of ${event.count}${next}${flags.length ? `, ${flags.join(', ')}` : ''}`
    }
    case 'reminder':
      return `${by}${event.level} reminder, ${event.tool} × ${event.count}: ${preview(headOf(event.text, HEAD_CHARS), HEAD_CHARS)}`
    case 'blocked':
      return `${by}${event.wouldBlock ? 'would block' : 'blocked'} ${event.tool} after ${event.count} calls in a row: ${preview(headOf(event.feedback, HEAD_CHARS), HEAD_CHARS)}`
    case 'reset':
      return `${by}chain reset by ${RESET_CAUSE[event.reason]}, a run of ${event.previousCount} ended`
    case 'request':
      return `${by}request to ${event.url}, ${event.format}, ${event.calls} calls, ${event.remindersInserted} reminders`
    case 'page-load':
      return `page loaded: ${event.url}`
  }
}
