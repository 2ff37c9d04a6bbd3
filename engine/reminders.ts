import { freeze } from './intrinsics.ts'
import { headOf } from './text-head.ts'
import type { ReminderMessage } from './types.ts'

const GENTLE_REMINDER =
  'You are repeating the exact same tool call with identical arguments. Carefully analyze the previous result before calling again: if the task is not complete, try a different approach or different arguments instead of repeating the call.'

function detailedReminder(tool: string, count: number, argumentsPreview: string): string {
  return (
    'Repeated tool call detected:\n' +
    `- tool: ${tool}\n` +
    `- consecutive_calls: ${count}\n` +
    `- arguments: ${argumentsPreview}\n` +
    'The repeated calls are not making progress. Do not call this tool with these exact arguments again. Inspect the latest result and choose a different action, different arguments, or finish the task if enough evidence has been gathered.'
  )
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

/** The model-visible, attributable message for one threshold reached; frozen, as listeners share it. */
export function reminderMessage(r: ReminderRequest): ReminderMessage {
  const text =
    r.level === 'gentle'
      ? GENTLE_REMINDER
      : detailedReminder(r.tool, r.count, previewArguments(r.canonicalArguments, r.argumentsPreviewChars))
  return noticeMessage(text, `${r.tool} × ${r.count}`)
}

/** A reminder text as the message the model sees, attributed to the guard. */
export function noticeMessage(text: string, summary: string): ReminderMessage {
  return freeze({
    role: 'user',
    content: freeze([freeze({ type: 'text', text })] as const),
    source: freeze({ kind: 'plugin', plugin: 'repeat-tool-guard', form: 'notice', summary } as const),
  })
}
