// The same-tool detector (`countBy: 'tool'`): a run is the same tool called again and again,
// whatever its arguments (`grep a`, `grep b`, `grep c`), and its reminders say so.
import { type ReminderRequest, type RunReminderTexts, runReminder } from '../reminders.ts'
import type { ReminderMessage } from '../types.ts'

const SAME_TOOL: RunReminderTexts = {
  gentle: 'You are calling the same tool again and again. Carefully analyze the previous results before calling it again: if the task is not complete, try a different approach or a different tool.',
  heading: 'Repeated tool use detected:',
  argumentsLabel: 'last_arguments',
  advice: 'The repeated calls are not making progress. Inspect the latest result and choose a different action, or finish the task if enough evidence has been gathered.',
}

export function sameToolReminder(r: ReminderRequest): ReminderMessage {
  return runReminder(SAME_TOOL, r)
}
