import { createRepeatToolGuard, type GuardConfigInput, type ReminderMessage } from '../index.ts'
import { REPEATED_ANSWER_FRAME } from './answers/answer-text.ts'

interface ReminderShapes {
  /** The texts that never vary: the gentle reminders. */
  readonly exact: ReadonlySet<string>
  /** Each varying text up to its first tool name, and from after its last arguments to its end. */
  readonly framed: readonly (readonly [head: string, tail: string])[]
}

const TOOL_MARK = '\u0000'
const ARGS_MARK = '\u0001'
let shapes: ReminderShapes | undefined

/** The texts a scratch guard running `config` sends for `calls`, in order. */
function textsFor(config: GuardConfigInput, calls: readonly string[]): string[] {
  const guard = createRepeatToolGuard(config)
  const agent = {}
  return calls.flatMap((args) => {
    const message: ReminderMessage | undefined = guard.observe({ agent, name: TOOL_MARK, arguments: args })
    return message ? [message.content[0].text] : []
  })
}

const frame = (text: string) => [text.slice(0, text.indexOf(TOOL_MARK)), text.slice(text.lastIndexOf(ARGS_MARK) + ARGS_MARK.length)] as const

/**
 * The reminder texts as the engine writes them, learnt once from scratch guards (the exact-repeat
 * texts, the same-tool ones and the cycle's): recognition then follows the engine's texts instead
 * of keeping a copy of them.
 */
function reminderShapes(): ReminderShapes {
  if (shapes) return shapes
  const [gentle, detailed] = textsFor({ thresholds: [2, 3] }, [ARGS_MARK, ARGS_MARK, ARGS_MARK])
  const [sameToolGentle, sameToolDetailed] = textsFor({ thresholds: [2, 3], countBy: 'tool' }, [ARGS_MARK, ARGS_MARK, ARGS_MARK])
  const other = `${ARGS_MARK}${ARGS_MARK}`
  const [cycle] = textsFor({ thresholds: [9], cycles: { maxPeriod: 2, repeats: 2 } }, [ARGS_MARK, other, ARGS_MARK, other])
  shapes = { exact: new Set([gentle!, sameToolGentle!]), framed: [frame(detailed!), frame(sameToolDetailed!), frame(cycle!), REPEATED_ANSWER_FRAME] }
  return shapes
}

/** Whether `text` is one of the guard's reminders (any tool, count and arguments). */
export function isGuardReminder(text: string): boolean {
  const { exact, framed } = reminderShapes()
  return exact.has(text) || framed.some(([head, tail]) => text.startsWith(head) && text.endsWith(tail))
}
