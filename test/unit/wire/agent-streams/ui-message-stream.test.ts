// Server loops streamed to the page over the AI SDK's UI message stream, made by the real `ai`
// package, read through the wire guard as the page reads them.
import { describe, expect, test } from 'vitest'
import { RECOMMENDED_CONFIG } from '../../../../engine/index.ts'
import { createWireGuard, type WireEvent } from '../../../../engine/wire/index.ts'
import { openaiChatBody } from '../../../fixtures/wire/conversations.ts'
import { detailed, GENTLE } from '../../../fixtures/wire/reminders.ts'
import { assistantFrom, chatRequest, clientToolChat, PROMPT, serverLoopStream } from './ai-sdk.ts'
import { readInPieces } from './split.ts'

const ofType = <T extends WireEvent['type']>(events: readonly WireEvent[], type: T) => events.filter((e): e is Extract<WireEvent, { type: T }> => e.type === type)

describe("a server's tool loop, read from its UI message stream", () => {
  test.each([1, 2, 3])('6 identical calls: 6 call events, would-remind at 3 and 5 (splits seeded %i)', async (seed) => {
    const guard = createWireGuard()
    const stream = await serverLoopStream(6)
    const reading = guard.openStream(await chatRequest('chat_1', [PROMPT]), 'ui-message-stream', RECOMMENDED_CONFIG)!
    const events = readInPieces(reading, stream, seed)
    expect(events[0]).toMatchObject({ type: 'agent', format: 'ai-sdk-ui', label: 'make the tests pass' })
    expect(ofType(events, 'agent')).toHaveLength(1)
    expect(ofType(events, 'call').map((e) => [e.tool, e.seq])).toEqual([1, 2, 3, 4, 5, 6].map((n) => ['read_file', n]))
    expect(ofType(events, 'reminder').map((e) => [e.level, e.count, e.seq, e.message.content[0].text, e.placement, e.serverLoop])).toEqual([
      ['gentle', 3, 3, GENTLE, '', true],
      ['detailed', 5, 5, detailed('read_file', 5, '{"path":"a.ts"}'), '', true],
    ])
  })

  test('each call is reported as soon as its result is read', async () => {
    const reading = createWireGuard().openStream(await chatRequest('chat_1', [PROMPT]), 'ui-message-stream', RECOMMENDED_CONFIG)!
    const stream = await serverLoopStream(2)
    const firstResult = stream.indexOf('tool-output-available')
    const upToFirst = stream.indexOf('\n\n', firstResult) + 2
    expect(ofType(reading.push(stream.slice(0, upToFirst - 1)), 'call')).toHaveLength(0)
    expect(ofType(reading.push(stream.slice(upToFirst - 1, upToFirst)), 'call')).toHaveLength(1)
  })

  test('the next request, which carries the streamed steps, counts nothing twice and inserts nothing', async () => {
    const guard = createWireGuard()
    const stream = await serverLoopStream(6)
    readInPieces(guard.openStream(await chatRequest('chat_1', [PROMPT]), 'ui-message-stream', RECOMMENDED_CONFIG)!, stream, 7)
    const assistant = await assistantFrom(stream, { id: 'msg_a', role: 'assistant', parts: [] })
    const next = await chatRequest('chat_1', [PROMPT, assistant, { id: 'msg_u2', role: 'user', parts: [{ type: 'text', text: 'thanks, now run them' }] }])
    const inspection = guard.inspect(next, RECOMMENDED_CONFIG)!
    expect(inspection.body).toBeUndefined()
    expect(inspection.events.map((e) => e.type)).toEqual(['chain-reset', 'request'])
    expect(ofType(inspection.events, 'request')[0]).toMatchObject({ calls: 6, remindersInserted: 0 })
  })

  test('results that come in another order still count in the order the calls were made', async () => {
    const reading = createWireGuard().openStream(await chatRequest('chat_1', [PROMPT]), 'ui-message-stream', RECOMMENDED_CONFIG)!
    const chunk = (value: object) => `data: ${JSON.stringify(value)}\n\n`
    const input = (id: string, path: string) => chunk({ type: 'tool-input-available', toolCallId: id, toolName: 'read_file', input: { path } })
    const output = (id: string) => chunk({ type: 'tool-output-available', toolCallId: id, output: 'x' })
    const events = reading.push([chunk({ type: 'start-step' }), input('c1', 'a'), input('c2', 'b'), output('c2')].join(''))
    expect(ofType(events, 'call')).toHaveLength(0)
    expect(ofType(reading.push(output('c1')), 'call').map((e) => e.canonicalArguments)).toEqual(['{"path":"a"}', '{"path":"b"}'])
  })

  test('a stream cut in the middle ends the run there: no event from a half chunk, nothing after', async () => {
    const guard = createWireGuard()
    const stream = await serverLoopStream(6)
    const reading = guard.openStream(await chatRequest('chat_1', [PROMPT]), 'ui-message-stream', RECOMMENDED_CONFIG)!
    // Cut inside the 4th result's chunk.
    let at = -1
    for (let n = 0; n < 4; n++) at = stream.indexOf('tool-output-available', at + 1)
    const events = readInPieces(reading, stream.slice(0, at + 10), 3, { cut: true })
    expect(ofType(events, 'call')).toHaveLength(3)
    expect(reading.push(stream.slice(at + 10))).toEqual([])
    expect(guard.snapshot()[0]).toMatchObject({ count: 3 })
  })

  test('with tools the page runs, the stream counts nothing: the next request does, and gets the reminder', async () => {
    const guard = createWireGuard()
    const { turns, last } = await clientToolChat('chat_1', 3)
    const streamed = turns.flatMap(({ body, stream }) => {
      const inspected = guard.inspect(body, RECOMMENDED_CONFIG)?.events ?? []
      return [...inspected, ...readInPieces(guard.openStream(body, 'ui-message-stream', RECOMMENDED_CONFIG)!, stream, 5)]
    })
    const final = guard.inspect(last, RECOMMENDED_CONFIG)!
    expect(ofType([...streamed, ...final.events], 'call')).toHaveLength(3)
    expect(ofType(final.events, 'reminder').map((e) => [e.level, e.placement, e.serverLoop])).toEqual([['gentle', 'messages[2]', undefined]])
    expect(ofType([...streamed, ...final.events], 'agent')).toHaveLength(1)
  })

  test('a stream that is no UI message stream gives no event, and a request of another kind no reading', async () => {
    const guard = createWireGuard()
    const request = await chatRequest('chat_1', [PROMPT])
    for (const text of ['data: {"choices":[{"delta":{"content":"hi"}}]}\n\ndata: [DONE]\n\n', 'Hello, this is a plain text stream.', 'event: ping\ndata: tool-x\n\n'])
      expect(readInPieces(guard.openStream(request, 'ui-message-stream', RECOMMENDED_CONFIG)!, text, 1)).toEqual([])
    expect(guard.openStream(JSON.stringify(openaiChatBody({ turns: [{ prompt: 'p' }] })), 'ui-message-stream', RECOMMENDED_CONFIG)).toBeUndefined()
    expect(guard.openStream('not json', 'ui-message-stream', RECOMMENDED_CONFIG)).toBeUndefined()
    expect(guard.openStream(request, 'ag-ui', RECOMMENDED_CONFIG)).toBeUndefined()
    expect(guard.openStream(JSON.stringify({ id: 'c', messages: [] }), 'ui-message-stream', RECOMMENDED_CONFIG)).toBeUndefined()
  })

  test('past its bound, nothing more of a stream is read', async () => {
    const guard = createWireGuard()
    const stream = await serverLoopStream(6)
    const reading = guard.openStream(await chatRequest('chat_1', [PROMPT]), 'ui-message-stream', RECOMMENDED_CONFIG)!
    const half = stream.indexOf('call_4')
    const before = reading.push(stream.slice(0, half))
    expect(reading.push(`: ${'x'.repeat(8 * 1024 * 1024)}\n`)).toEqual([])
    expect(reading.push(stream.slice(half))).toEqual([])
    expect(ofType(before, 'call')).toHaveLength(3)
  })
})
