// The same-tool detector (`countBy: 'tool'`): a run is the same tool called again and again,
// whatever its arguments (`grep a`, `grep b`, `grep c`), and its reminders say so.
import { noticeMessage, previewArguments, type ReminderRequest } from '../reminders.ts'
import type { ReminderMessage } from '../types.ts'

const GENTLE_SAME_TOOL =
  'You are calling the same tool again and again. Carefully analyze the previous results before calling it again: if the task is not complete, try a different approach or a different tool.'

function detailedSameTool(tool: string, count: number, argumentsPreview: string): string {
  return [
    'Repeated tool use detected:',
    `- tool: ${tool}`,
    `- consecutive_calls: ${count}`,
    `- last_arguments: ${argumentsPreview}`,
    'The repeated calls are not making progress. Inspect the latest result and choose a different action, or finish the task if enough evidence has been gathered.',
  ].join('\n')
}

export function sameToolReminder(r: ReminderRequest): ReminderMessage {
  const text =
    r.level === 'gentle'
      ? GENTLE_SAME_TOOL
      : detailedSameTool(r.tool, r.count, previewArguments(r.canonicalArguments, r.argumentsPreviewChars))
  return noticeMessage(text, `${r.tool} × ${r.count}`)
}
