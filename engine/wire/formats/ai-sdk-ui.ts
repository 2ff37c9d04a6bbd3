// The AI SDK's UI messages, as `useChat` (its `DefaultChatTransport`) posts them: `{ id, messages,
// trigger, messageId, ...body }`. Every step of one assistant turn is in ONE assistant message:
// its `parts` hold `step-start` parts between the steps, and a tool part per call (`tool-<name>`,
// or `dynamic-tool` with `toolName`) that carries the call's input and, once it ran, its output or
// error. A reminder is a user message after that assistant message, the only place the format
// allows one (docs/zero-code.md, "Agents whose loop runs on the server").
import { isRecord } from '../../records.ts'
import { isReminderContent, isToolName, listOf } from '../content.ts'
import type { ExactArguments } from '../exact-arguments.ts'
import { asParsed } from '../exact-arguments.ts'
import { createHistory, type ReadCall } from '../history.ts'
import type { JsonObject, WireFormatAdapter } from '../types.ts'

const TOOL_PREFIX = 'tool-'

/** A message's id prefix for the guard's reminders: never one the SDK hands out (16 letters and digits). */
export const REMINDER_ID_PREFIX = 'repeat-tool-guard-'

/** The tool name of a tool part the page's agent called (not one the provider ran), else undefined. */
export function toolPartName(part: unknown): string | undefined {
  if (!isRecord(part) || typeof part.type !== 'string' || typeof part.toolCallId !== 'string' || part.providerExecuted === true) return undefined
  const name = part.type === 'dynamic-tool' ? part.toolName : part.type.startsWith(TOOL_PREFIX) ? part.type.slice(TOOL_PREFIX.length) : undefined
  return isToolName(name) ? name : undefined
}

/** A tool part's call with its result; undefined while it has none (still streaming, awaiting approval). */
function answeredCall(part: JsonObject, name: string, exact: ExactArguments): ReadCall | undefined {
  // An input the tool refused is kept as `rawInput`, with the error as the result.
  const args = exact(part.input === undefined ? part.rawInput : part.input)
  if (part.state === 'output-available' && part.preliminary !== true) return { id: part.toolCallId, name, arguments: args, isError: false, content: part.output }
  if (part.state === 'output-error') return { id: part.toolCallId, name, arguments: args, isError: true, content: part.errorText }
  return undefined
}

/**
 * The steps of an assistant message: its tool parts between `step-start` parts, each with its
 * result. A call the user denied never ran, and is none. The steps end before the first one with
 * a call still waiting for its result: then the message is not `complete`.
 */
function stepsOf(parts: readonly unknown[], exact: ExactArguments): { steps: ReadCall[][]; complete: boolean } {
  const steps: ReadCall[][] = []
  let current: ReadCall[] = []
  for (const part of parts) {
    if (isRecord(part) && part.type === 'step-start') {
      if (current.length > 0) steps.push(current)
      current = []
      continue
    }
    const name = toolPartName(part)
    if (name === undefined || (part as JsonObject).state === 'output-denied') continue
    const call = answeredCall(part as JsonObject, name, exact)
    if (!call) return { steps, complete: false }
    current.push(call)
  }
  if (current.length > 0) steps.push(current)
  return { steps, complete: true }
}

/** A UI message: a role and a list of parts. */
interface UiMessage extends JsonObject {
  readonly role: unknown
  readonly parts: readonly unknown[]
}

export const isUiMessage = (message: unknown): message is UiMessage => isRecord(message) && typeof message.role === 'string' && Array.isArray(message.parts)
const isMessage = isUiMessage

export const aiSdkUi: WireFormatAdapter = {
  format: 'ai-sdk-ui',

  matches: (body) => listOf(body.messages).some((m) => isMessage(m) && m.role === 'assistant' && m.parts.some((part) => toolPartName(part) !== undefined)),

  walk(body, exact = asParsed) {
    const messages = listOf(body.messages)
    const system = messages.find((m) => isMessage(m) && m.role === 'system')
    const history = createHistory(isMessage(system) ? system.parts : undefined, typeof body.id === 'string' && body.id !== '' ? body.id : undefined)
    for (let i = 0; i < messages.length; i++) {
      const message = messages[i]
      if (!isMessage(message)) continue
      if (message.role === 'user') history.user(message.parts)
      if (message.role !== 'assistant') continue
      const { steps, complete } = stepsOf(message.parts, exact)
      // Every step of the message has its reminders right after the message.
      const at = { path: ['messages'], index: i + 1 }
      for (const calls of steps) history.step(calls, at, isReminderMessage(messages[i + 1]))
      // A call still waiting for its result ends what can be guarded.
      if (!complete) break
    }
    return history.done()
  },

  reminderItem: (text, place) => ({ id: reminderId(place?.anchor ?? '', place?.index ?? 0), role: 'user', parts: [{ type: 'text', text }] }),
}

/** Stable across requests: the call the reminder follows names it. */
export function reminderId(anchor: string, index: number): string {
  return `${REMINDER_ID_PREFIX}${anchor}${index === 0 ? '' : `-${index}`}`
}

function isReminderMessage(message: unknown): boolean {
  return isMessage(message) && message.role === 'user' && isReminderContent(message.parts)
}
