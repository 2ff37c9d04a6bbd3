import { freeze } from './intrinsics.ts'
import { headOf } from './text-head.ts'
import type { ReminderMessage } from './types.ts'

/**
 * The texts of one kind of run's reminders (exact repeats here, same-tool runs in
 * detectors/same-tool.ts): the gentle one whole, the detailed one around the run's facts.
 */
export interface RunReminderTexts {
  readonly gentle: string
  /** The detailed reminder's first line. */
  readonly heading: string
  /** The label of the arguments' line. */
  readonly argumentsLabel: string
  /** The detailed reminder's last line: what the model should do instead. */
  readonly advice: string
}

const EXACT_REPEAT: RunReminderTexts = {
  gentle:
    'You are repeating the exact same tool call with identical arguments. Carefully analyze the previous result before calling again: if the task is not complete, try a different approach or different arguments instead of repeating the call.',
  heading: 'Repeated tool call detected:',
  argumentsLabel: 'arguments',
  advice:
    'The repeated calls are not making progress. Do not call this tool with these exact arguments again. Inspect the latest result and choose a different action, different arguments, or finish the task if enough evidence has been gathered.',
}

/**
 * The head of the canonical arguments, then `… (+N more chars)` when anything was cut. The cap
 * bounds what a looping write or edit payload adds to every later request.
 */
export function previewArguments(canonical: string, maxChars: number): string {
  const head = headOf(canonical, maxChars)
  return head.length === canonical.length ? canonical : `${head}… (+${canonical.length - head.length} more chars)`
}

/** What a run's reminder is made from: the same for exact repeats and same-tool runs. */
export interface ReminderRequest {
  readonly level: 'gentle' | 'detailed'
  readonly tool: string
  readonly count: number
  readonly canonicalArguments: string
  readonly argumentsPreviewChars: number
}

/** A run's model-visible, attributable message for one threshold reached, in `texts`' words; frozen, as listeners share it. */
export function runReminder(texts: RunReminderTexts, r: ReminderRequest): ReminderMessage {
  const text =
    r.level === 'gentle'
      ? texts.gentle
      : `${texts.heading}\n- tool: ${r.tool}\n- consecutive_calls: ${r.count}\n- ${texts.argumentsLabel}: ${previewArguments(r.canonicalArguments, r.argumentsPreviewChars)}\n${texts.advice}`
  return noticeMessage(text, `${r.tool} × ${r.count}`)
}

/** An exact repeat's message for one threshold reached. */
export function reminderMessage(r: ReminderRequest): ReminderMessage {
  return runReminder(EXACT_REPEAT, r)
}

/** A reminder text as the message the model sees, attributed to the guard. */
export function noticeMessage(text: string, summary: string): ReminderMessage {
  return freeze({
    role: 'user',
    content: freeze([freeze({ type: 'text', text })] as const),
    source: freeze({ kind: 'plugin', plugin: 'repeat-tool-guard', form: 'notice', summary } as const),
  })
}
