// An AG-UI agent server for the tests: it answers each `RunAgentInput` with events encoded by the
// real `@ag-ui/encoder` (server-sent events, since the page's HttpAgent accepts text/event-stream).
// Each thread is scripted by its first user message: `loop:<n>` calls `search` with the same
// arguments n times, then answers. With `?tools=server` the loop runs in one response, each call
// followed by its result; with `?tools=frontend` each response ends on a call the page runs (a
// frontend tool), whose result comes back in the next request's messages.
import type { BaseEvent, Message, RunAgentInput } from '@ag-ui/core'
import { EventType } from '@ag-ui/core'
import { EventEncoder } from '@ag-ui/encoder'
import type { TestServer } from './server.ts'

export const AG_UI_PATH = '/agent'
export const AG_UI_INPUT = { q: 'threshold' }
export const AG_UI_RESULT = 'no match in src/'
const ANSWER = 'The loader ignores "threshold".'

export interface AgUiServer {
  /** Each request's user message texts, with the thread's first one. */
  readonly runs: { readonly first: string; readonly userTexts: readonly string[] }[]
}

const unique = (prefix: string) => `${prefix}_${Math.random().toString(36).slice(2)}`

function textOf(message: Message): string {
  const { content } = message as { content?: unknown }
  return typeof content === 'string' ? content : ''
}

function toolCall(parentMessageId: string): BaseEvent[] {
  const toolCallId = unique('call')
  return [
    { type: EventType.TOOL_CALL_START, toolCallId, toolCallName: 'search', parentMessageId } as BaseEvent,
    { type: EventType.TOOL_CALL_ARGS, toolCallId, delta: JSON.stringify(AG_UI_INPUT) } as BaseEvent,
    { type: EventType.TOOL_CALL_END, toolCallId } as BaseEvent,
    ...(parentMessageId.startsWith('server') ? [{ type: EventType.TOOL_CALL_RESULT, messageId: unique('result'), toolCallId, content: AG_UI_RESULT, role: 'tool' } as BaseEvent] : []),
  ]
}

function answer(): BaseEvent[] {
  const messageId = unique('msg')
  return [
    { type: EventType.TEXT_MESSAGE_START, messageId, role: 'assistant' } as BaseEvent,
    { type: EventType.TEXT_MESSAGE_CONTENT, messageId, delta: ANSWER } as BaseEvent,
    { type: EventType.TEXT_MESSAGE_END, messageId } as BaseEvent,
  ]
}

export function mountAgUiServer(server: TestServer): AgUiServer {
  const state: AgUiServer = { runs: [] }
  server.route((req, res, body) => {
    const url = new URL(req.url ?? '/', 'http://x')
    if (req.method !== 'POST' || url.pathname !== AG_UI_PATH) return false
    const input = JSON.parse(body.toString('utf8')) as RunAgentInput
    const users = input.messages.filter((m) => m.role === 'user').map(textOf)
    state.runs.push({ first: users[0] ?? '', userTexts: users })
    const loops = Number(/loop:(\d+)/.exec(users[0] ?? '')?.[1] ?? 0)
    const done = input.messages.filter((m) => m.role === 'tool').length
    const events: BaseEvent[] = [{ type: EventType.RUN_STARTED, threadId: input.threadId, runId: input.runId } as BaseEvent]
    if (url.searchParams.get('tools') === 'frontend') events.push(...(done < loops ? toolCall(unique('frontend')) : answer()))
    else {
      for (let n = 0; n < loops; n++) events.push(...toolCall(unique('server')))
      events.push(...answer())
    }
    events.push({ type: EventType.RUN_FINISHED, threadId: input.threadId, runId: input.runId } as BaseEvent)
    const encoder = new EventEncoder({ accept: req.headers.accept ?? '' })
    res.writeHead(200, { 'content-type': encoder.getContentType(), 'cache-control': 'no-store' })
    for (const event of events) res.write(encoder.encode(event))
    res.end()
    return true
  })
  return state
}
