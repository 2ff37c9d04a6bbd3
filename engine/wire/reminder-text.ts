import { createRepeatToolGuard, type ReminderMessage } from '../index.ts'

interface ReminderShapes {
  readonly gentle: string
  /** The detailed reminder up to the tool name, and from after the arguments to its end. */
  readonly detailedHead: string
  readonly detailedTail: string
}

const TOOL_MARK = '\u0000'
const ARGS_MARK = '\u0001'
let shapes: ReminderShapes | undefined

/**
 * The reminder texts as the engine writes them, learnt once from a scratch guard: recognition
 * then follows the engine's texts instead of keeping a copy of them.
 */
function reminderShapes(): ReminderShapes {
  if (shapes) return shapes
  const guard = createRepeatToolGuard({ thresholds: [2, 3] })
  const exec = { agent: {}, name: TOOL_MARK, arguments: ARGS_MARK }
  guard.observe(exec)
  const gentle = textOf(guard.observe(exec))
  const detailed = textOf(guard.observe(exec))
  shapes = {
    gentle,
    detailedHead: detailed.slice(0, detailed.indexOf(TOOL_MARK)),
    detailedTail: detailed.slice(detailed.indexOf(ARGS_MARK) + ARGS_MARK.length),
  }
  return shapes
}

function textOf(message: ReminderMessage | undefined): string {
  return message!.content[0].text
}

/** Whether `text` is one of the guard's reminders (any tool, count and arguments). */
export function isGuardReminder(text: string): boolean {
  const { gentle, detailedHead, detailedTail } = reminderShapes()
  return text === gentle || (text.startsWith(detailedHead) && text.endsWith(detailedTail))
}
