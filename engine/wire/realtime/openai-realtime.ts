// OpenAI Realtime events, in the GA protocol and the beta one the SDKs still speak (the names the
// guard reads are the same in both). A tool call is `response.function_call_arguments.done`, or a
// `function_call` item in `response.output_item.done` or `response.done` (the same call_id in each:
// the session counts it once); its result is the client's `conversation.item.create` with a
// `function_call_output` item; a reminder is one more `conversation.item.create`, a user message
// with the text as `input_text` (docs/zero-code.md, "Realtime sessions").
import { jsonStringify, setOf } from '../../intrinsics.ts'
import { isRecord } from '../../records.ts'
import { isReminderContent, isToolName, listOf } from '../content.ts'
import type { JsonObject } from '../types.ts'
import { quotedAfter } from './message-head.ts'
import type { RealtimeCall, RealtimeDialect, RealtimeNews } from './types.ts'

const NOTHING: RealtimeNews = {}

const callOf = (item: unknown): RealtimeCall | undefined =>
  isRecord(item) && item.type === 'function_call' && isToolName(item.call_id) && (item.status === undefined || item.status === 'completed')
    ? { id: item.call_id, ...(isToolName(item.name) ? { name: item.name } : {}), ...(typeof item.arguments === 'string' ? { arguments: item.arguments } : {}) }
    : undefined

const callsOf = (items: readonly unknown[]): RealtimeCall[] => items.flatMap((item) => callOf(item) ?? [])

function sessionNews(session: unknown): RealtimeNews {
  if (!isRecord(session)) return { opens: true }
  return {
    opens: true,
    ...(typeof session.instructions === 'string' ? { instructions: session.instructions } : {}),
    ...(typeof session.model === 'string' ? { model: session.model } : {}),
  }
}

function itemNews(item: unknown): RealtimeNews {
  if (!isRecord(item)) return NOTHING
  if (item.type === 'function_call_output' && isToolName(item.call_id)) return { outputs: [{ id: item.call_id, content: item.output, isError: false }] }
  // A message the user typed (not a guard reminder the page sent itself) starts the chain over.
  if (item.type === 'message' && item.role === 'user' && !isReminderContent(item.content)) return { prompt: true }
  return NOTHING
}

export const openaiRealtime: RealtimeDialect = {
  protocol: 'openai-realtime',
  kindOf: (text) => quotedAfter(text, '{"type":"'),
  serverKinds: setOf(['session.created', 'session.updated', 'response.function_call_arguments.done', 'response.output_item.done', 'response.done', 'input_audio_buffer.committed']),
  clientKinds: setOf(['session.update', 'conversation.item.create']),
  kindOfMessage: (message) => (typeof message.type === 'string' ? message.type : undefined),

  server(event: JsonObject) {
    switch (event.type) {
      case 'session.created':
      case 'session.updated':
        return sessionNews(event.session)
      case 'response.function_call_arguments.done': {
        const call = callOf({ ...event, type: 'function_call', status: undefined })
        return call ? { calls: [call] } : NOTHING
      }
      case 'response.output_item.done':
        return { calls: callsOf([event.item]) }
      case 'response.done':
        return { calls: callsOf(isRecord(event.response) ? listOf(event.response.output) : []) }
      // The one other kind read: `input_audio_buffer.committed`, the user's speech taken as a turn.
      default:
        return { prompt: true }
    }
  },

  client(event: JsonObject) {
    if (event.type === 'session.update') {
      const { session } = event
      return isRecord(session) && typeof session.instructions === 'string' ? { instructions: session.instructions } : NOTHING
    }
    // The one other kind read: `conversation.item.create`.
    return itemNews(event.item)
  },

  reminderMessage: (reminder) => jsonStringify({ type: 'conversation.item.create', item: { type: 'message', role: 'user', content: [{ type: 'input_text', text: reminder }] } }),
  placement: (callId) => `conversation.item.create after ${callId}`,
}
