import { previewArguments } from './canonical.ts'
import type { ReminderLevel, ReminderMessage } from './types.ts'

export const GENTLE_REMINDER =
  'You are repeating the exact same tool call with identical arguments. Carefully analyze the previous result before calling again: if the task is not complete, try a different approach or different arguments instead of repeating the call.'

function detailedReminder(tool: string, count: number, argumentsPreview: string): string {
  return [
    'Repeated tool call detected:',
    `- tool: ${tool}`,
    `- consecutive_calls: ${count}`,
    `- arguments: ${argumentsPreview}`,
    'The repeated calls are not making progress. Do not call this tool with these exact arguments again. Inspect the latest result and choose a different action, different arguments, or finish the task if enough evidence has been gathered.',
  ].join('\n')
}

export interface ReminderRequest {
  readonly level: ReminderLevel
  readonly tool: string
  readonly count: number
  readonly canonicalArguments: string
  readonly argumentsPreviewChars: number
}

/** The model-visible, attributable message for one threshold crossing. */
export function reminderMessage(r: ReminderRequest): ReminderMessage {
  const text =
    r.level === 'gentle'
      ? GENTLE_REMINDER
      : detailedReminder(r.tool, r.count, previewArguments(r.canonicalArguments, r.argumentsPreviewChars))
  return {
    role: 'user',
    content: [{ type: 'text', text }],
    source: { kind: 'plugin', plugin: 'repeat-tool-guard', form: 'notice', summary: `${r.tool} × ${r.count}` },
  }
}
