// What set off a round-2 reminder (docs/panel.md, "What triggered a reminder"): for a near repeat,
// the firing call and the call before it, from the agent's recorded rows; for an error run, the
// last error the reminder quotes; for a repeated answer, how many times it was given.
import type { PanelEvent } from '../../protocol/events.ts'
import type { RowSource } from './entry-log.ts'

type CallEvent = Extract<PanelEvent, { type: 'call' }>
type ReminderEvent = Extract<PanelEvent, { type: 'reminder' }>

export type TriggerKind = 'similar' | 'error-run' | 'repeated-text'

/** The reminders the timeline marks with their trigger; the others quote their own. */
export function triggerKind(event: ReminderEvent): TriggerKind | undefined {
  return event.level === 'similar' || event.level === 'error-run' || event.level === 'repeated-text' ? event.level : undefined
}

/** A near repeat's two calls, as far as the panel still holds them. */
export interface SimilarCalls {
  /** The call before the firing one, which it was found alike to. */
  readonly previous?: CallEvent
  readonly firing?: CallEvent
}

/**
 * The firing call (the reminder's `seq`) and the tracked call before it, which is of the same tool:
 * a near-repeat run is consecutive tracked calls of one tool, each alike to the one before
 * (docs/detectors.md, "Near repeats"), and untracked calls stay out of it. Read backwards from the
 * newest row, only when asked for.
 */
export function similarCalls(rows: RowSource, reminder: ReminderEvent): SimilarCalls {
  let firing: CallEvent | undefined
  for (let n = rows.end - 1; n >= rows.start; n--) {
    const event = rows.event(n)
    if (event?.type !== 'call') continue
    if (firing === undefined) {
      if (event.seq === reminder.seq && event.tool === reminder.tool) firing = event
      else if (event.seq < reminder.seq) return {}
    } else if (event.tracked) return { previous: event, firing }
  }
  return firing === undefined ? {} : { firing }
}

const LAST_ERROR = '\n- last_error: '
const ERROR_ADVICE = '\nThe tool keeps failing.'

/** The error an error-run reminder quotes (docs/detectors.md, "Error runs"); undefined for another text. */
export function lastErrorOf(text: string): string | undefined {
  const from = text.indexOf(LAST_ERROR)
  const to = text.lastIndexOf(ERROR_ADVICE)
  return from === -1 || to < from ? undefined : text.slice(from + LAST_ERROR.length, to)
}
