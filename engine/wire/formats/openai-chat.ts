// OpenAI Chat Completions: `messages[]`; an assistant message's `tool_calls[]` are answered by the
// `role: "tool"` messages right after it; a reminder is a user message after the last of them.
import { isToolName, listOf } from '../content.ts'
import { isRecord } from '../../records.ts'
import { walkConversation, type ConversationLayout } from '../conversation-walk.ts'
import type { WireFormatAdapter } from '../types.ts'
import { toolMessagesAnswer, type UnansweredCall } from './tool-messages.ts'

const messages: ConversationLayout<UnansweredCall> = {
  entries: 'messages',
  system(_body, entries) {
    const system = entries.find((m) => isRecord(m) && (m.role === 'system' || m.role === 'developer'))
    return isRecord(system) ? system.content : undefined
  },
  userContent: (message) => (message.role === 'user' ? message.content : undefined),
  calls: (message) => (message.role === 'assistant' ? listOf(message.tool_calls).flatMap(readCall) : []),
  // The tool messages answering this one follow it directly.
  answer: (entries, next, calls) => toolMessagesAnswer(entries, next, calls, 'tool_call_id'),
}

export const openaiChat: WireFormatAdapter = {
  format: 'openai-chat',

  matches: (body) => listOf(body.messages).some((m) => isRecord(m) && (m.role === 'tool' || Array.isArray(m.tool_calls))),

  walk: (body) => walkConversation(messages, body),

  reminderItem: (text) => ({ role: 'user', content: text }),
}

function readCall(call: unknown): UnansweredCall[] {
  if (!isRecord(call)) return []
  // `function` tools carry JSON-string arguments; `custom` tools carry free-form input.
  const fn = isRecord(call.function) ? call.function : isRecord(call.custom) ? call.custom : undefined
  if (!fn || !isToolName(fn.name)) return []
  return [{ id: call.id, name: fn.name, arguments: 'arguments' in fn ? fn.arguments : fn.input, isError: false }]
}
