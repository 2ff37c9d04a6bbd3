// Which agent event stream a response is, told by content alone, never by its URL (docs/zero-code.md,
// "Agents whose loop runs on the server"): the request's JSON body first, with a substring search
// for the names its shape must hold (a request without them is never followed), then the response's
// headers once it arrives. An AI SDK UI chat request (`messages` of `{id, role, parts}`) answered
// with `x-vercel-ai-ui-message-stream: v1` over `text/event-stream` is a UI message stream; an AG-UI
// `RunAgentInput` (`threadId`, `runId`, `messages`, `tools`) answered with `text/event-stream` is AG-UI.
// The wire guard reads the request body as a whole afterwards, and refuses one of another shape.
import { stringCharCodeAt, stringIndexOf } from '../../../../engine/intrinsics.ts'
import type { AgentStreamProtocol } from '../../../../engine/wire/index.ts'
import type { ResponseHeader } from '../responses/watch.ts'

/** What a request body may be answered with, judged by the names it holds. */
export interface StreamCandidates {
  readonly uiMessages: boolean
  readonly agUi: boolean
}

const has = (text: string, name: string): boolean => stringIndexOf(text, name) !== -1

/** Undefined when the body can be neither request (the case of almost every request). */
export function streamCandidates(text: string): StreamCandidates | undefined {
  const messages = has(text, '"messages"')
  if (!messages) return undefined
  const uiMessages = has(text, '"parts"')
  const agUi = has(text, '"threadId"') && has(text, '"runId"')
  return uiMessages || agUi ? { uiMessages, agUi } : undefined
}

const EVENT_STREAM = 'text/event-stream'

/** A media type of `text/event-stream`, with or without parameters, in any ASCII case, white space around it. */
function isEventStream(type: string | null): boolean {
  if (type === null) return false
  let from = 0
  let to = stringIndexOf(type, ';')
  if (to === -1) to = type.length
  while (from < to && isSpace(stringCharCodeAt(type, from))) from++
  while (to > from && isSpace(stringCharCodeAt(type, to - 1))) to--
  if (to - from !== EVENT_STREAM.length) return false
  for (let i = 0; i < EVENT_STREAM.length; i++) {
    const c = stringCharCodeAt(type, from + i)
    const want = stringCharCodeAt(EVENT_STREAM, i)
    if (c !== want && !(c >= 0x41 && c <= 0x5a && c + 0x20 === want)) return false
  }
  return true
}

const isSpace = (c: number): boolean => c === 0x20 || c === 0x09

/** The protocol the response speaks, if its request may be that protocol's; undefined for any other response. */
export function streamProtocol(candidates: StreamCandidates, header: ResponseHeader): AgentStreamProtocol | undefined {
  if (!isEventStream(header('content-type'))) return undefined
  if (candidates.uiMessages && header('x-vercel-ai-ui-message-stream') === 'v1') return 'ui-message-stream'
  return candidates.agUi ? 'ag-ui' : undefined
}
