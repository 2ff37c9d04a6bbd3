// The round-2 detectors on zero-code mode's other paths: OpenAI Responses continued by id, and the
// tool loops a server streams (AG-UI events, the AI SDK's UI message stream).
import { HttpAgent } from '@ag-ui/client'
import { type BaseEvent, EventType } from '@ag-ui/core'
import { EventEncoder } from '@ag-ui/encoder'
import { jsonSchema, stepCountIs, streamText, tool } from 'ai'
import { describe, expect, test } from 'vitest'
import { RECOMMENDED_CONFIG } from '../../../engine/index.ts'
import { createWireGuard, type WireEvent } from '../../../engine/wire/index.ts'
import { createStatefulResponses } from '../../../engine/wire/stateful/responses.ts'
import { occurrences } from '../../fixtures/wire/placements.ts'
import { PROMPT, THREAD } from './agent-streams/ag-ui.ts'
import { loopingModel } from './agent-streams/ai-sdk.ts'
import { readInPieces } from './agent-streams/split.ts'
import { configWith, ofType } from './support/detector-runs.ts'
import { call, first, next, output, responseEvents } from './support/responses-chain.ts'
import { SIMILAR_TEXT } from './support/round-two.ts'

const SIMILAR = configWith({ similar: { threshold: 0.7, minCalls: 3 } })
const QUERIES = ['how do I configure auth', 'configure auth', 'auth configuration']
const searchArgs = (query: string) => JSON.stringify({ query })

describe('OpenAI Responses continued by id', () => {
  function chain(config = SIMILAR) {
    const stateful = createStatefulResponses()
    const wire = createWireGuard()
    const send = (body: object, id: string, out: readonly unknown[]) => {
      const request = stateful.request(JSON.stringify(body))!
      const inspection = stateful.inspect(wire, request, config)
      const reading = stateful.reading(request)
      reading.push(responseEvents(id, out))
      reading.end()
      return { sent: inspection?.body ?? request.text, events: inspection?.events ?? [] }
    }
    const turns = [send(first(), 'resp_0', [{ ...call(1, searchArgs(QUERIES[0]!)), name: 'search' }])]
    for (let n = 1; n <= 3; n++) {
      const out = n < 3 ? [{ ...call(n + 1, searchArgs(QUERIES[n]!)), name: 'search' }] : []
      turns.push(send(next(`resp_${n - 1}`, [output(n)]), `resp_${n}`, out))
    }
    return turns
  }

  test('a near repeat over the chain is inserted once, into the request that carries the third result', () => {
    const turns = chain()
    const text = SIMILAR_TEXT('search', 3, '{"query":"auth configuration"}')
    expect(turns.map(({ sent }) => occurrences(sent, text))).toEqual([0, 0, 0, 1])
    expect(turns.flatMap(({ events }) => ofType(events, 'reminder').map((e) => [e.level, e.count, e.placement]))).toEqual([['similar', 3, 'input[1]']])
  })

  test('the default config inserts nothing', () => {
    expect(chain(RECOMMENDED_CONFIG).flatMap(({ events }) => ofType(events, 'reminder'))).toEqual([])
  })
})

const encoder = new EventEncoder({ accept: 'text/event-stream' })

/** A server's AG-UI run that calls `search` once with each of `calls` arguments and runs it. */
function searchRun(calls: readonly object[]): string {
  const events: BaseEvent[] = [{ type: EventType.RUN_STARTED, threadId: THREAD, runId: 'run_1' } as BaseEvent]
  calls.forEach((args, i) => {
    const id = `call_${i + 1}`
    events.push(
      { type: EventType.TOOL_CALL_START, toolCallId: id, toolCallName: 'search', parentMessageId: `msg_${i + 1}` } as BaseEvent,
      { type: EventType.TOOL_CALL_ARGS, toolCallId: id, delta: JSON.stringify(args) } as BaseEvent,
      { type: EventType.TOOL_CALL_END, toolCallId: id } as BaseEvent,
      { type: EventType.TOOL_CALL_RESULT, messageId: `result_${i + 1}`, toolCallId: id, content: 'no results', role: 'tool' } as BaseEvent,
    )
  })
  events.push({ type: EventType.RUN_FINISHED, threadId: THREAD, runId: 'run_1' } as BaseEvent)
  return events.map((event) => encoder.encodeSSE(event)).join('')
}

async function runBody(stream: string): Promise<string> {
  let body = ''
  const agent = new HttpAgent({
    url: 'http://localhost/agent',
    threadId: THREAD,
    initialMessages: [PROMPT],
    fetch: async (_url: unknown, init?: RequestInit) => {
      body = String(init?.body)
      return new Response(stream, { headers: { 'content-type': 'text/event-stream' } })
    },
  })
  await agent.runAgent({ runId: 'run_1' })
  return body
}

const remindersIn = (events: readonly WireEvent[]) => ofType(events, 'reminder').map((e) => [e.level, e.detector, e.count, e.serverLoop])

describe("a server's loop streamed as AG-UI events", () => {
  test.each([3, 8])('three rewordings of one search are a near repeat, shown as a would-remind (splits seeded %i)', async (seed) => {
    const stream = searchRun(QUERIES.map((query) => ({ query })))
    const events = readInPieces(createWireGuard().openStream(await runBody(stream), 'ag-ui', SIMILAR)!, stream, seed)
    expect(remindersIn(events)).toEqual([['similar', 'similar', 3, true]])
    expect(ofType(events, 'reminder')[0]!.message.content[0].text).toBe(SIMILAR_TEXT('search', 3, '{"query":"auth configuration"}'))
  })

  test('with ignoreArgumentKeys, calls stamped with fresh ids are one run', async () => {
    const stream = searchRun([1, 2, 3].map((nonce) => ({ query: 'auth', nonce })))
    const body = await runBody(stream)
    const config = configWith({ ignoreArgumentKeys: ['nonce'] })
    expect(remindersIn(readInPieces(createWireGuard().openStream(body, 'ag-ui', config)!, stream, 5))).toEqual([['gentle', 'repeat', 3, true]])
    expect(remindersIn(readInPieces(createWireGuard().openStream(body, 'ag-ui', RECOMMENDED_CONFIG)!, stream, 5))).toEqual([])
  })
})

describe("a server's loop streamed as AI SDK UI messages", () => {
  test('a tool that throws every time is an error run: after 2, between the repeat reminders', async () => {
    const schema = jsonSchema<{ path: string }>({ type: 'object', properties: { path: { type: 'string' } }, required: ['path'] })
    const stream = await streamText({
      model: loopingModel('read_file', { path: 'a.ts' }, 6),
      prompt: 'make the tests pass',
      tools: {
        read_file: tool({
          inputSchema: schema,
          execute: async (): Promise<string> => {
            throw new Error('disk not mounted')
          },
        }),
      },
      stopWhen: stepCountIs(7),
    })
      .toUIMessageStreamResponse()
      .text()
    const request = JSON.stringify({ id: 'chat_1', messages: [{ id: 'msg_user_1', role: 'user', parts: [{ type: 'text', text: 'make the tests pass' }] }], trigger: 'submit-message' })
    const events = readInPieces(createWireGuard().openStream(request, 'ui-message-stream', configWith({ errorRuns: { after: 2 } }))!, stream, 2)
    expect(ofType(events, 'call').map((e) => e.isError)).toEqual(Array(6).fill(true))
    expect(remindersIn(events)).toEqual([
      ['error-run', 'error-run', 2, true],
      ['gentle', 'repeat', 3, true],
      ['error-run', 'error-run', 4, true],
      ['detailed', 'repeat', 5, true],
      ['error-run', 'error-run', 6, true],
    ])
    // The AI SDK sends a tool's error to the page masked by default, and the reminder quotes what the page read.
    expect(ofType(events, 'reminder')[0]!.message.content[0].text).toContain('- last_error: An error occurred.\n')
  })
})
