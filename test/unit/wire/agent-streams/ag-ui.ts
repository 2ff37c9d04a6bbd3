// Real AG-UI traffic for the agent-stream tests: the events a server sends, written by
// `@ag-ui/encoder`, and the `RunAgentInput` bodies `@ag-ui/client`'s `HttpAgent` posts (its
// `fetch` answers with those events, so the client builds its messages from them as it does).
import { HttpAgent } from '@ag-ui/client'
import { type BaseEvent, EventType, type Message } from '@ag-ui/core'
import { EventEncoder } from '@ag-ui/encoder'

const encoder = new EventEncoder({ accept: 'text/event-stream' })

export const THREAD = 'thread_1'

/** One call of `read_file` on a.ts, in its own assistant message; with its result when the server runs the tool. */
function callEvents(n: number, withResult: boolean): BaseEvent[] {
  const id = `call_${n}`
  return [
    { type: EventType.STEP_STARTED, stepName: `step ${n}` } as BaseEvent,
    { type: EventType.TOOL_CALL_START, toolCallId: id, toolCallName: 'read_file', parentMessageId: `msg_${n}` } as BaseEvent,
    { type: EventType.TOOL_CALL_ARGS, toolCallId: id, delta: '{"path":' } as BaseEvent,
    { type: EventType.TOOL_CALL_ARGS, toolCallId: id, delta: '"a.ts"}' } as BaseEvent,
    { type: EventType.TOOL_CALL_END, toolCallId: id } as BaseEvent,
    ...(withResult ? [{ type: EventType.TOOL_CALL_RESULT, messageId: `result_${n}`, toolCallId: id, content: 'export const a = 1', role: 'tool' } as BaseEvent] : []),
    { type: EventType.STEP_FINISHED, stepName: `step ${n}` } as BaseEvent,
  ]
}

/** A run's event stream: `calls` numbered from `first`, run by the server or left to the page. */
export function runStream(runId: string, first: number, calls: number, serverTools: boolean): string {
  const events: BaseEvent[] = [{ type: EventType.RUN_STARTED, threadId: THREAD, runId } as BaseEvent]
  for (let n = first; n < first + calls; n++) events.push(...callEvents(n, serverTools))
  events.push({ type: EventType.RUN_FINISHED, threadId: THREAD, runId } as BaseEvent)
  return events.map((event) => encoder.encodeSSE(event)).join('')
}

export const PROMPT: Message = { id: 'user_1', role: 'user', content: 'make the tests pass' }

/** An agent whose every run answers with the next of `streams`, keeping each body it posted. */
export function agentAnswering(streams: string[], threadId = THREAD) {
  const bodies: string[] = []
  const agent = new HttpAgent({
    url: 'http://localhost/agent',
    threadId,
    initialMessages: [PROMPT],
    fetch: async (_url: unknown, init?: RequestInit) => {
      bodies.push(String(init?.body))
      return new Response(streams.shift() ?? '', { headers: { 'content-type': 'text/event-stream' } })
    },
  })
  return { agent, bodies }
}

/**
 * A thread whose tool runs on the page (a frontend tool): each run streams one call, the page
 * answers it with a tool message, and runs again. Returns each run's body and its stream.
 */
export async function frontendToolThread(calls: number, threadId = THREAD) {
  const streams = Array.from({ length: calls }, (_, i) => runStream(`run_${i + 1}`, i + 1, 1, false))
  const { agent, bodies } = agentAnswering([...streams], threadId)
  for (let n = 1; n <= calls; n++) {
    await agent.runAgent({ runId: `run_${n}` })
    agent.addMessage({ id: `result_${n}`, role: 'tool', toolCallId: `call_${n}`, content: 'export const a = 1' })
  }
  await agent.runAgent({ runId: `run_${calls + 1}` })
  return { turns: streams.map((stream, i) => ({ body: bodies[i]!, stream })), last: bodies[calls]! }
}
