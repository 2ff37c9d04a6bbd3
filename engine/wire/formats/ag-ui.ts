// AG-UI's `RunAgentInput`, as `@ag-ui/client`'s `HttpAgent` posts it: `{ threadId, runId, state,
// messages, tools, context, forwardedProps }`. Its messages are OpenAI Chat's in camelCase: an
// assistant message's `toolCalls` are answered by the `role: "tool"` messages right after it
// (`toolCallId`, `content`, an `error` when the tool failed); a reminder is a user message, with
// an id, after the last of them (docs/zero-code.md, "Agents whose loop runs on the server").
import { isRecord } from '../../records.ts'
import { isToolName, listOf } from '../content.ts'
import { type ConversationLayout, walkConversation } from '../conversation-walk.ts'
import type { JsonObject, WireFormatAdapter } from '../types.ts'
import { reminderId } from './ai-sdk-ui.ts'
import { toolMessagesAnswer, type UnansweredCall } from './tool-messages.ts'

const isMessage = (message: unknown): message is JsonObject => isRecord(message) && typeof message.role === 'string'

const messages: ConversationLayout<UnansweredCall> = {
  entries: 'messages',
  system(_body, entries) {
    const system = entries.find((m) => isMessage(m) && (m.role === 'system' || m.role === 'developer'))
    return isMessage(system) ? system.content : undefined
  },
  id: (body) => body.threadId as string,
  userContent: (message) => (message.role === 'user' ? message.content : undefined),
  calls: (message) => (message.role === 'assistant' ? listOf(message.toolCalls).flatMap(readCall) : []),
  // The client puts the tool messages answering an assistant message right after it.
  answer: (entries, next, calls) => toolMessagesAnswer(entries, next, calls, 'toolCallId', (answer) => typeof answer.error === 'string'),
}

/** A `RunAgentInput`: a thread, a run and a list of messages. */
export function isRunAgentInput(body: JsonObject): boolean {
  return typeof body.threadId === 'string' && typeof body.runId === 'string' && Array.isArray(body.messages)
}

export const agUi: WireFormatAdapter = {
  format: 'ag-ui',

  matches: (body) => isRunAgentInput(body) && listOf(body.messages).some((m) => isMessage(m) && (m.role === 'tool' || Array.isArray(m.toolCalls))),

  walk: (body) => walkConversation(messages, body),

  reminderItem: (text, place) => ({ id: reminderId(place?.anchor ?? '', place?.index ?? 0), role: 'user', content: text }),
}

function readCall(call: unknown): UnansweredCall[] {
  if (!isRecord(call) || !isRecord(call.function) || !isToolName(call.function.name)) return []
  return [{ id: call.id, name: call.function.name, arguments: call.function.arguments, isError: false }]
}
