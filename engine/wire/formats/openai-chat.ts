// OpenAI Chat Completions: `messages[]`; an assistant message's `tool_calls[]` are answered by the
// `role: "tool"` messages right after it; a reminder is a user message after the last of them.
import { isReminderContent, isToolName, listOf, resultContent } from '../content.ts'
import { isRecord } from '../../records.ts'
import { createHistory, type ReadCall } from '../history.ts'
import type { JsonObject, WireFormatAdapter } from '../types.ts'

export const openaiChat: WireFormatAdapter = {
  format: 'openai-chat',

  matches: (body) =>
    listOf(body.messages).some((m) => isRecord(m) && (m.role === 'tool' || Array.isArray(m.tool_calls))),

  walk(body) {
    const messages = listOf(body.messages)
    const system = messages.find((m) => isRecord(m) && (m.role === 'system' || m.role === 'developer'))
    const history = createHistory(isRecord(system) ? system.content : undefined)
    let i = 0
    while (i < messages.length) {
      const message = messages[i]
      i += 1
      if (!isRecord(message)) continue
      if (message.role === 'user') history.user(message.content)
      const calls = message.role === 'assistant' ? listOf(message.tool_calls).flatMap(readCall) : []
      if (calls.length === 0) continue
      // The tool messages answering this one follow it directly.
      const answers = new Map<unknown, JsonObject>()
      while (i < messages.length && isRecord(messages[i]) && (messages[i] as JsonObject).role === 'tool') {
        const answer = messages[i] as JsonObject
        answers.set(answer.tool_call_id, answer)
        i += 1
      }
      // A call still waiting for its result ends what can be guarded.
      if (!calls.every((call) => answers.has(call.id))) break
      const answered = calls.map((call): ReadCall => ({ ...call, content: resultContent(answers.get(call.id)!.content) }))
      history.step(answered, { path: ['messages'], index: i }, isReminderMessage(messages[i]))
    }
    return history.done()
  },

  reminderItem: (text) => ({ role: 'user', content: text }),
}

function readCall(call: unknown): Omit<ReadCall, 'content'>[] {
  if (!isRecord(call)) return []
  // `function` tools carry JSON-string arguments; `custom` tools carry free-form input.
  const fn = isRecord(call.function) ? call.function : isRecord(call.custom) ? call.custom : undefined
  if (!fn || !isToolName(fn.name)) return []
  return [{ id: call.id, name: fn.name, arguments: 'arguments' in fn ? fn.arguments : fn.input, isError: false }]
}

function isReminderMessage(message: unknown): boolean {
  return isRecord(message) && message.role === 'user' && isReminderContent(message.content)
}
