// Gemini generateContent / streamGenerateContent: a model content's `functionCall` parts are
// answered by the `functionResponse` parts of the next content; a reminder is a separate user
// content after it, so the responses stay pure and no part (nor its `thoughtSignature`) is touched.
import { isReminderContent, isToolName, listOf } from '../content.ts'
import { isRecord } from '../../records.ts'
import { walkConversation, type ConversationLayout } from '../conversation-walk.ts'
import type { ExactArguments } from '../exact-arguments.ts'
import type { ReadCall } from '../history.ts'
import type { JsonObject, WireFormatAdapter } from '../types.ts'

const functionCall = (part: unknown): JsonObject | undefined => (isRecord(part) && isRecord(part.functionCall) && isToolName(part.functionCall.name) ? part.functionCall : undefined)

const functionResponse = (part: unknown): JsonObject | undefined => (isRecord(part) && isRecord(part.functionResponse) ? part.functionResponse : undefined)

const none: readonly JsonObject[] = []

const contents: ConversationLayout<JsonObject> = {
  entries: 'contents',
  system: (body) => body.systemInstruction,
  // Contents without a role are the user's (single-turn requests leave it out).
  userContent: (content) => (content.role !== 'model' ? listOf(content.parts) : undefined),
  calls: (content) => (content.role === 'model' ? listOf(content.parts).flatMap((part) => functionCall(part) ?? none) : []),
  answer(entries, next, calls, exact) {
    const answer = entries[next]
    const answerParts = isRecord(answer) && answer.role !== 'model' ? listOf(answer.parts) : []
    const matched = pairResponses(
      calls,
      answerParts.flatMap((part) => functionResponse(part) ?? none),
      exact,
    )
    if (!matched) return undefined
    return { calls: matched, at: { path: ['contents'], index: next + 1 }, guarded: isReminderUserContent(entries[next + 1]), next: next + 1, userContent: answerParts }
  },
}

export const gemini: WireFormatAdapter = {
  format: 'gemini',

  matches: (body) => listOf(body.contents).some((c) => isRecord(c) && listOf(c.parts).some(functionCall)),

  walk: (body, exact) => walkConversation(contents, body, exact),

  reminderItem: (text) => ({ role: 'user', parts: [{ text }] }),
}

/**
 * Each call with its response: by id when the call has one, else the first unused response
 * with the call's name (Gemini answers in order). Undefined when a call has none.
 */
function pairResponses(calls: readonly JsonObject[], responses: readonly JsonObject[], exact: ExactArguments): ReadCall[] | undefined {
  const unused = new Set(responses)
  const paired: ReadCall[] = []
  for (const call of calls) {
    const hasId = typeof call.id === 'string' && call.id !== ''
    let match: JsonObject | undefined
    for (const response of unused) {
      if (hasId ? response.id === call.id : response.name === call.name) {
        match = response
        break
      }
    }
    if (!match) return undefined
    unused.delete(match)
    paired.push({ id: call.id, name: call.name as string, arguments: exact(call.args), isError: isErrorResponse(match), content: match.response })
  }
  return paired
}

/** By the API's convention a failed call answers `{ error }` instead of `{ output }`. */
function isErrorResponse(response: JsonObject): boolean {
  return isRecord(response.response) && 'error' in response.response && !('output' in response.response)
}

function isReminderUserContent(content: unknown): boolean {
  return isRecord(content) && content.role === 'user' && isReminderContent(content.parts)
}
