// The chat-shaped formats (OpenAI Chat Completions, AG-UI): an assistant message's tool calls are
// answered by the `role: "tool"` messages right after it, each naming its call by an id field; a
// reminder is a user message after the last of them.
import { isRecord } from '../../records.ts'
import { isReminderContent, resultContent } from '../content.ts'
import type { Answer } from '../conversation-walk.ts'
import type { ReadCall } from '../history.ts'
import type { JsonObject } from '../types.ts'

/** A call as the assistant message names it, its result still to find. */
export type UnansweredCall = Omit<ReadCall, 'content'>

/**
 * The answer of the tool messages from `next` on, which name their call by `idKey`; undefined when
 * one of `calls` has none. `failed` tells a tool message that reports an error, where the format has one.
 */
export function toolMessagesAnswer(entries: readonly unknown[], next: number, calls: readonly UnansweredCall[], idKey: string, failed?: (answer: JsonObject) => boolean): Answer | undefined {
  const answers = new Map<unknown, JsonObject>()
  let i = next
  while (i < entries.length && isRecord(entries[i]) && (entries[i] as JsonObject).role === 'tool') {
    const answer = entries[i] as JsonObject
    answers.set(answer[idKey], answer)
    i += 1
  }
  if (!calls.every((call) => answers.has(call.id))) return undefined
  const answered = calls.map((call): ReadCall => {
    const answer = answers.get(call.id)!
    return { ...call, ...(failed && { isError: failed(answer) }), content: resultContent(answer.content) }
  })
  return { calls: answered, at: { path: ['messages'], index: i }, guarded: isReminderMessage(entries[i]), next: i }
}

function isReminderMessage(message: unknown): boolean {
  return isRecord(message) && message.role === 'user' && isReminderContent(message.content)
}
