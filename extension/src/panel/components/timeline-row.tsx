import './common-controls.css'
import './timeline-row.css'
import type { ComponentChild } from 'preact'
import { memo } from 'preact/compat'
import { LIMITS, type Withheld } from '../../protocol/events.ts'
import type { SimilarCalls } from '../store/reminder-trigger.ts'
import type { TimelineEntry, TimelineEvent } from '../store/timeline-entry.ts'
import { clockTime, count, preview } from './format.ts'
import { ReminderTrigger } from './reminder-trigger.tsx'
import { RunCost } from './waste-cost.tsx'

type Of<T extends TimelineEvent['type']> = Extract<TimelineEvent, { type: T }>

interface TimelineRowProps {
  readonly entry: TimelineEntry
  /** The agent's label, shown when the timeline mixes agents. */
  readonly agentLabel?: string
  readonly expanded: boolean
  readonly onToggle: (entry: TimelineEntry) => void
  /** A call that belongs to a cycle a reminder was sent for. */
  readonly inCycle?: boolean
  /** A near-repeat reminder's two calls, read from the recorded rows (the store's `similarCalls`). */
  readonly similarCalls?: (entry: TimelineEntry) => SimilarCalls
}

const NO_CALLS = (): SimilarCalls => ({})

/** One timeline row. Everything from the page is rendered as text nodes, never as markup. */
export const TimelineRow = memo(function TimelineRow({ entry, agentLabel, expanded, onToggle, inCycle = false, similarCalls = NO_CALLS }: TimelineRowProps) {
  const { event } = entry
  const head = (
    <>
      <span class="rtg-time">{clockTime(event.at)}</span>
      {agentLabel !== undefined && (
        <span class="rtg-row-agent" title={agentLabel}>
          {agentLabel}
        </span>
      )}
    </>
  )
  switch (event.type) {
    case 'call':
      return <CallRow event={event} head={head} expanded={expanded} toggle={() => onToggle(entry)} inCycle={inCycle} />
    case 'reminder':
      return (
        <ReminderRow event={event} head={head}>
          <ReminderTrigger event={event} expanded={expanded} toggle={() => onToggle(entry)} similarCalls={() => similarCalls(entry)} />
        </ReminderRow>
      )
    case 'reset':
      return <ResetRow event={event} head={head} />
    case 'blocked':
      return <BlockedRow event={event} head={head} />
    case 'request':
      return <RequestRow event={event} head={head} />
    case 'page-load':
      return (
        <div class="rtg-row rtg-row-page" data-testid="timeline-row" data-kind="page-load">
          {head}
          <span class="rtg-row-text">Page loaded: {event.url}</span>
        </div>
      )
  }
})

interface RowProps<T extends TimelineEvent['type']> {
  readonly event: Of<T>
  readonly head: ComponentChild
}

function CallRow({ event, head, expanded, toggle, inCycle }: RowProps<'call'> & { expanded: boolean; toggle: () => void; inCycle: boolean }) {
  const clipped = event.argsLength > event.args.length
  const classes = ['rtg-row', 'rtg-row-call', event.tracked ? '' : 'rtg-untracked', event.isError || event.denied ? 'rtg-row-problem' : '', inCycle ? 'rtg-in-cycle' : ''].filter(Boolean)
  return (
    <div class={classes.join(' ')} data-testid="timeline-row" data-kind="call" data-in-cycle={inCycle ? 'true' : undefined}>
      <button type="button" class="rtg-row-line" tabIndex={-1} aria-expanded={expanded} onClick={toggle} title={expanded ? 'Collapse the arguments' : 'Expand the arguments'}>
        {head}
        <span class="rtg-seq">#{event.seq}</span>
        <span class="rtg-tool" data-testid="call-tool">
          {event.tool}
        </span>
        <span class="rtg-args-preview mono">{preview(event.args)}</span>
        <span class="rtg-flags">
          {!event.tracked && (
            <span class="rtg-badge rtg-badge-muted" title="Excluded by the config: neither counts nor resets the run">
              transparent
            </span>
          )}
          {event.denied && (
            <span class="rtg-badge rtg-badge-warn" title="Refused by a permission layer; it still counts">
              denied
            </span>
          )}
          {event.isError && <span class="rtg-badge rtg-badge-error">error</span>}
          {inCycle && (
            <span class="rtg-badge rtg-badge-cycle" title="One of the calls of a cycle the guard reminded about">
              cycle
            </span>
          )}
        </span>
        <span class="rtg-run" title={event.nextThreshold === null ? 'Past the highest threshold: no more reminders for this run' : `Next reminder at ${event.nextThreshold}`}>
          ×{event.count}
          <span class="rtg-next">{event.nextThreshold === null ? '' : ` → ${event.nextThreshold}`}</span>
        </span>
      </button>
      {expanded && (
        <div class="rtg-row-detail">
          <pre class="rtg-pre mono" data-testid="call-args">
            {event.args}
          </pre>
          {clipped && (
            <p class="rtg-note">
              {count(event.argsLength, 'character')} in all; the panel receives the first {LIMITS.args.toLocaleString('en-US')}.
            </p>
          )}
        </div>
      )}
    </div>
  )
}

function ReminderRow({ event, head, children }: RowProps<'reminder'> & { children: ComponentChild }) {
  return (
    <div class={`rtg-row rtg-row-reminder rtg-level-${event.level}`} data-testid="timeline-row" data-kind="reminder">
      <div class="rtg-row-line">
        {head}
        <span class="rtg-badge rtg-badge-level" data-testid="reminder-badge">
          {REMINDER_BADGE[event.level]}
        </span>
        <span class="rtg-row-text">{event.level === 'cycle' ? `cycle × ${event.count} (last: ${event.tool})` : `${event.tool} × ${event.count}`}</span>
        {event.detector === 'same-tool' && (
          <span class="rtg-badge rtg-badge-muted" title="countBy: 'tool': the run is the tool, whatever its arguments">
            same tool
          </span>
        )}
        {event.withheld === 'server-loop' ? (
          <span class="rtg-badge rtg-badge-muted" data-testid="reminder-withheld" title={`Not inserted: ${WITHHELD_WHY['server-loop']}`}>
            would remind: the loop runs on the server
          </span>
        ) : (
          event.placement !== undefined && (
            <span class="rtg-placement" title={event.withheld === undefined ? 'Where the reminder was inserted in the request body' : `Not inserted: ${WITHHELD_WHY[event.withheld]}`}>
              {event.withheld === undefined ? 'inserted' : 'would insert'} at <code class="mono">{event.placement}</code>
            </span>
          )
        )}
        <RunCost wasteMs={event.wasteMs} wasteTokens={event.wasteTokens} />
      </div>
      <pre class="rtg-pre rtg-reminder-text mono" data-testid="reminder-text" aria-label="The reminder, as the model sees it">
        {event.text}
      </pre>
      {event.textLength !== undefined && (
        <p class="rtg-note" data-testid="reminder-cut">
          (cut: {event.text.length.toLocaleString('en-US')} of {event.textLength.toLocaleString('en-US')} chars shown)
        </p>
      )}
      {children}
    </div>
  )
}

const REMINDER_BADGE: Readonly<Record<Of<'reminder'>['level'], string>> = {
  gentle: 'Gentle reminder',
  detailed: 'Detailed reminder',
  cycle: 'Cycle reminder',
  'error-run': 'Error-run reminder',
  similar: 'Near-repeat reminder',
  'repeated-text': 'Repeated-answer reminder',
}

const RESET_WHY: Readonly<Record<Of<'reset'>['reason'], string>> = {
  prompt: 'a user prompt',
  'different-call': 'a different call',
  'result-changed': 'result changed (the same call got a new result)',
}

function ResetRow({ event, head }: RowProps<'reset'>) {
  return (
    <div class={`rtg-row rtg-row-reset rtg-reset-${event.reason}`} data-testid="timeline-row" data-kind="reset">
      {head}
      <span class="rtg-row-text">
        ↺ Chain reset by {RESET_WHY[event.reason]}: a run of {event.previousCount} ended
      </span>
    </div>
  )
}

/** A call `stopAfter` refused; zero-code mode cannot refuse, so there it only would have. */
function BlockedRow({ event, head }: RowProps<'blocked'>) {
  const would = event.wouldBlock === true
  return (
    <div class="rtg-row rtg-row-blocked" data-testid="timeline-row" data-kind="blocked" title={event.feedback}>
      {head}
      <span class="rtg-badge rtg-badge-error" data-testid="blocked-badge">
        {would ? 'would block' : 'blocked'}
      </span>
      <span class="rtg-tool">{event.tool}</span>
      <span class="rtg-row-text">
        {would ? 'stopAfter would refuse this call' : 'refused before it ran'}: a run of {event.count} already
      </span>
      <RunCost wasteMs={event.wasteMs} wasteTokens={event.wasteTokens} />
    </div>
  )
}

function RequestRow({ event, head }: RowProps<'request'>) {
  return (
    <div class="rtg-row rtg-row-request" data-testid="timeline-row" data-kind="request">
      {head}
      <span class="rtg-badge rtg-badge-muted">{event.format}</span>
      <span class="rtg-row-text mono" title={event.url}>
        {event.url}
      </span>
      <span class="rtg-flags" data-testid="request-outcome">
        {count(event.calls, 'call')} · {requestOutcome(event)}
      </span>
    </div>
  )
}

const WITHHELD_WHY: Readonly<Record<Withheld, string>> = {
  observe: 'zero-code mode observes this origin; the request went out exactly as the page made it',
  'keepalive-limit': 'the request is keep-alive, and the browser refuses keep-alive bodies over 64 KB',
  'no-content': "the WebMCP tool's result has no content list to add it to (the tool threw, or returned something else); the result went back as the tool made it",
  'server-loop': "it fell due inside the server's own tool loop, read from the stream the page receives: no request of the page's goes to the model until that loop ends",
}

function requestOutcome({ remindersInserted, rewritten, withheld }: Of<'request'>): string {
  const due = count(remindersInserted, 'reminder')
  switch (withheld) {
    case 'observe':
      return remindersInserted === 0 ? 'observed, not rewritten' : `observed, not rewritten (${due} would be inserted)`
    case 'keepalive-limit':
      return `not rewritten: ${due} would pass the 64 KB keep-alive limit`
    case 'no-content':
      return `not rewritten: ${due} had nowhere to go`
    // The protocol refuses a request withheld so (event-checks.ts): a server's loop sends none of the page's.
    case 'server-loop':
      return `not rewritten: ${due} fell due inside the server's loop`
    case undefined:
      return `${due} inserted${rewritten ? ' · body rewritten' : ''}`
  }
}

/** Every row but a reminder is one line of a height the stylesheet fixes, unless expanded. */
export const isOneLine = (event: TimelineEvent): event is Exclude<TimelineEvent, Of<'reminder'>> => event.type !== 'reminder'

const ONE_LINE_HEIGHT = 22

/** A row's height: exact for a one-line row, a first guess for a reminder until it is measured. */
export function estimateRowHeight(event: TimelineEvent): number {
  if (isOneLine(event)) return ONE_LINE_HEIGHT
  const lines = event.text.split('\n').length
  return 30 + 16 * (lines + Math.floor(event.text.length / 120))
}
