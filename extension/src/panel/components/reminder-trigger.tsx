import './reminder-trigger.css'
import type { PanelEvent } from '../../protocol/events.ts'
import { lastErrorOf, triggerKind, type SimilarCalls } from '../store/reminder-trigger.ts'
import { isStandIn } from '../store/sanitize-text.ts'
import { count } from './format.ts'
import { diffTexts, type DiffPart } from './text-diff.ts'

type ReminderEvent = Extract<PanelEvent, { type: 'reminder' }>

interface TriggerProps {
  readonly event: ReminderEvent
  readonly expanded: boolean
  readonly toggle: () => void
  /** A near repeat's two calls, read from the recorded rows when the details open. */
  readonly similarCalls: () => SimilarCalls
}

/**
 * The mark of a near-repeat, error-run or repeated-answer reminder: what set it off, in a line,
 * and on Enter, Space or a click, the details (docs/panel.md, "What triggered a reminder").
 */
export function ReminderTrigger({ event, expanded, toggle, similarCalls }: TriggerProps) {
  const kind = triggerKind(event)
  if (kind === undefined) return null
  return (
    <div class="rtg-trigger" data-testid="reminder-trigger" data-trigger={kind}>
      <button type="button" class="rtg-trigger-toggle" tabIndex={-1} aria-expanded={expanded} onClick={toggle} data-testid="trigger-toggle">
        {expanded ? '▾' : '▸'} Triggered by {SUMMARY[kind](event)}
      </button>
      {expanded && (
        <div class="rtg-trigger-detail" data-testid="trigger-detail">
          {kind === 'similar' ? <SimilarDetail calls={similarCalls()} /> : kind === 'error-run' ? <ErrorDetail event={event} /> : <AnswerDetail event={event} />}
        </div>
      )}
    </div>
  )
}

const SUMMARY: Readonly<Record<'similar' | 'error-run' | 'repeated-text', (event: ReminderEvent) => string>> = {
  similar: ({ tool, count: calls }) => `${calls} calls of ${tool} in a row, each alike to the one before but not identical`,
  'error-run': ({ tool, count: errors }) => `${tool} returning an error ${errors} times in a row`,
  'repeated-text': ({ count: answers }) => `the same answer ${answers} times in a row`,
}

function SimilarDetail({ calls: { previous, firing } }: { calls: SimilarCalls }) {
  if (previous === undefined || firing === undefined) return <p class="rtg-note">The calls it compared are no longer in the panel.</p>
  const { before, after } = diffTexts(previous.args, firing.args)
  return (
    <div class="rtg-diff" data-testid="similar-diff">
      <DiffSide title={`Previous call #${previous.seq}`} parts={before} changedClass="rtg-diff-removed" testId="diff-previous" />
      <DiffSide title={`This call #${firing.seq}`} parts={after} changedClass="rtg-diff-added" testId="diff-firing" />
    </div>
  )
}

function DiffSide({ title, parts, changedClass, testId }: { title: string; parts: readonly DiffPart[]; changedClass: string; testId: string }) {
  return (
    <div class="rtg-diff-side">
      <p class="rtg-label">{title}</p>
      <pre class="rtg-pre mono" data-testid={testId}>
        {parts.map((part, i) =>
          part.changed ? (
            <mark key={i} class={changedClass}>
              {part.text}
            </mark>
          ) : (
            part.text
          ),
        )}
      </pre>
    </div>
  )
}

function ErrorDetail({ event }: { event: ReminderEvent }) {
  const error = lastErrorOf(event.text)
  return (
    <>
      <p class="rtg-label">Last error</p>
      {error === undefined ? (
        <p class="rtg-note" data-testid="trigger-error-missing">
          {isStandIn(event.text) ? 'Not in this session: a sanitized export keeps the reminder’s length and hash, not its text.' : 'The reminder’s text was cut before the error.'}
        </p>
      ) : (
        <pre class="rtg-pre mono" data-testid="trigger-error">
          {error}
        </pre>
      )}
    </>
  )
}

/** The panel records no answers (only calls), so a repeated answer is shown by its count. */
function AnswerDetail({ event }: { event: ReminderEvent }) {
  return (
    <p class="rtg-note" data-testid="trigger-answers">
      The model gave the same answer, with no tool call, {count(event.count, 'time')} in a row. The answer itself is in the request that followed; the panel records calls, not answers.
    </p>
  )
}
