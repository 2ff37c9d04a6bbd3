// Gemini Live (`BidiGenerateContent`): each message has one top-level key. A tool call is an entry
// of the server's `toolCall.functionCalls` (`{ id, name, args }`); its result is the client's
// `toolResponse.functionResponses` entry with that id; a reminder is a `clientContent` user turn
// sent right after it. The protocol appends a `clientContent` turn to the conversation and lets it
// interrupt a generation under way, so the turn says `turnComplete: true`: the model's next turn
// then starts from the tool's response and the reminder together, rather than waiting for the user
// (docs/zero-code.md, "Gemini Live: why a complete turn").
import { jsonStringify, objectKeys, setOf } from '../../intrinsics.ts'
import { isRecord } from '../../records.ts'
import { isReminderContent, isToolName, listOf, plainText } from '../content.ts'
import type { JsonObject } from '../types.ts'
import { quotedAfter } from './message-head.ts'
import type { RealtimeCall, RealtimeDialect, RealtimeNews, RealtimeOutput } from './types.ts'

const NOTHING: RealtimeNews = {}
/** Enough of a system instruction for its first line. */
const INSTRUCTION_CHARS = 1_024

const callOf = (call: unknown): RealtimeCall | undefined => (isRecord(call) && isToolName(call.id) && isToolName(call.name) ? { id: call.id, name: call.name, arguments: call.args ?? {} } : undefined)

function outputOf(response: unknown): RealtimeOutput | undefined {
  if (!isRecord(response)) return undefined
  const content = response.response
  // By the API's convention a failed call answers `{ error }` instead of `{ output }`.
  const isError = isRecord(content) && 'error' in content && !('output' in content)
  return { ...(isToolName(response.id) ? { id: response.id } : {}), ...(isToolName(response.name) ? { name: response.name } : {}), content, isError }
}

function setupNews(setup: unknown): RealtimeNews {
  if (!isRecord(setup)) return NOTHING
  const instructions = plainText(setup.systemInstruction, INSTRUCTION_CHARS).text
  return {
    ...(instructions === '' ? {} : { instructions }),
    ...(typeof setup.model === 'string' ? { model: setup.model.replace(/^models\//, '') } : {}),
  }
}

const isUserTurn = (turn: unknown): boolean => isRecord(turn) && turn.role !== 'model' && !isReminderContent(turn.parts)

export const geminiLive: RealtimeDialect = {
  protocol: 'gemini-live',
  kindOf: (text) => quotedAfter(text, '{"'),
  serverKinds: setOf(['setupComplete', 'toolCall', 'toolCallCancellation']),
  clientKinds: setOf(['setup', 'toolResponse', 'clientContent']),
  // One key per message (a message with none, or with several, matters to nobody).
  kindOfMessage: (message) => {
    const keys = objectKeys(message)
    return keys.length === 1 ? keys[0] : undefined
  },

  server(message: JsonObject) {
    if ('setupComplete' in message) return { opens: true }
    const { toolCall, toolCallCancellation } = message
    if (isRecord(toolCall)) return { calls: listOf(toolCall.functionCalls).flatMap((call) => callOf(call) ?? []) }
    if (isRecord(toolCallCancellation)) return { cancelled: listOf(toolCallCancellation.ids).filter(isToolName) }
    return NOTHING
  },

  client(message: JsonObject) {
    if ('setup' in message) return setupNews(message.setup)
    const { toolResponse, clientContent } = message
    if (isRecord(toolResponse)) return { outputs: listOf(toolResponse.functionResponses).flatMap((response) => outputOf(response) ?? []) }
    if (isRecord(clientContent) && listOf(clientContent.turns).some(isUserTurn)) return { prompt: true }
    return NOTHING
  },

  reminderMessage: (reminder) => jsonStringify({ clientContent: { turns: [{ role: 'user', parts: [{ text: reminder }] }], turnComplete: true } }),
  placement: (callId) => `clientContent after ${callId}`,
}
