// The corners of reading agent streams: chunks and events that are no call of the agent's, calls
// that never run, results that come twice, and requests the page's own agent guards itself.
import { describe, expect, test } from 'vitest'
import { RECOMMENDED_CONFIG } from '../../../../engine/index.ts'
import { agUi } from '../../../../engine/wire/formats/ag-ui.ts'
import { aiSdkUi } from '../../../../engine/wire/formats/ai-sdk-ui.ts'
import { createWireGuard, type WireEvent, type WireGuard } from '../../../../engine/wire/index.ts'
import { GENTLE } from '../../../fixtures/wire/reminders.ts'

const ofType = <T extends WireEvent['type']>(events: readonly WireEvent[], type: T) => events.filter((e): e is Extract<WireEvent, { type: T }> => e.type === type)
const data = (value: unknown) => `data: ${typeof value === 'string' ? value : JSON.stringify(value)}\n\n`
const user = (id: string, text: string) => ({ id, role: 'user', parts: [{ type: 'text', text }] })
const chat = (messages: unknown[], id = 'chat_1') => JSON.stringify({ id, messages, trigger: 'submit-message' })
const run = (messages: unknown[]) => JSON.stringify({ threadId: 't', runId: 'r', messages })

/** The calls a stream reports, as `tool arguments result` (`!` for an error result). */
function callsOf(guard: WireGuard, request: string, protocol: 'ui-message-stream' | 'ag-ui', stream: string[]): string[] {
  const reading = guard.openStream(request, protocol, RECOMMENDED_CONFIG)!
  const events = [...stream.flatMap((piece) => reading.push(piece)), ...reading.end(false)]
  return ofType(events, 'call').map((e) => `${e.tool} ${e.canonicalArguments}${e.isError ? ' !' : ''}`)
}

describe('UI message chunks that are no call of the agent', () => {
  const input = (id: string, extra: object = {}) => data({ type: 'tool-input-available', toolCallId: id, toolName: 'read_file', input: { path: id }, ...extra })
  const output = (id: string, extra: object = {}) => data({ type: 'tool-output-available', toolCallId: id, output: 'x', ...extra })

  test('provider-run and denied calls never count, and the calls after them in their step do', () => {
    const stream = [
      data({ type: 'start-step' }),
      data({ type: 'tool-input-start', toolCallId: 'p1', toolName: 'web_search', providerExecuted: true }),
      input('p1', { toolName: 'web_search', providerExecuted: true }),
      data({ type: 'tool-input-start', toolCallId: 'd1', toolName: 'read_file' }),
      input('d1'),
      input('c1'),
      output('c1'),
      output('p1', { providerExecuted: true }),
      data({ type: 'tool-output-denied', toolCallId: 'd1' }),
      data({ type: 'tool-output-denied', toolCallId: 'c1' }),
      data({ type: 'tool-output-denied', toolCallId: 'unknown' }),
      // A denial of a call already counted changes nothing, in the count or in its step.
      input('c2'),
      output('c2'),
    ]
    expect(callsOf(createWireGuard(), chat([user('u', 'go')]), 'ui-message-stream', stream)).toEqual(['read_file {"path":"c1"}', 'read_file {"path":"c2"}'])
  })

  test('a call opened without a name takes the name its input gives', () => {
    const stream = [data({ type: 'tool-input-start', toolCallId: 'c1' }), input('c1'), output('c1')]
    expect(callsOf(createWireGuard(), chat([user('u', 'go')]), 'ui-message-stream', stream)).toEqual(['read_file {"path":"c1"}'])
  })

  test('a preliminary output is no result: the call counts with its final one', () => {
    const reading = createWireGuard().openStream(chat([user('u', 'go')]), 'ui-message-stream', RECOMMENDED_CONFIG)!
    expect(ofType(reading.push(input('c1') + output('c1', { preliminary: true })), 'call')).toEqual([])
    expect(ofType(reading.push(output('c1')), 'call')).toHaveLength(1)
  })

  test('a refused input is an error result; a call counts once, whatever comes after', () => {
    const stream = [
      input('c1'),
      output('c1', { preliminary: true }),
      output('c1', { output: 'final' }),
      output('c1', { output: 'again' }),
      input('c1', { input: { path: 'other' } }),
      data({ type: 'tool-input-error', toolCallId: 'c2', toolName: 'read_file', input: '{bad', errorText: 'invalid input' }),
      data({ type: 'tool-input-available', toolCallId: 'c3', input: {} }),
      data({ type: 'tool-output-error', toolCallId: 'c3', errorText: 'no tool' }),
      data({ type: 'tool-output-error', toolCallId: 'c4', errorText: 'never called' }),
      data({ type: 'tool-input-start', toolCallId: 42, toolName: 'read_file' }),
      data('"tool-"'),
      data('{"type":"tool-input-start",'),
      data('[DONE]'),
    ]
    expect(callsOf(createWireGuard(), chat([user('u', 'go')]), 'ui-message-stream', stream)).toEqual(['read_file {"path":"c1"}', 'read_file {bad !'])
  })

  test('a tool part without a name of its own is no call', () => {
    const parts = [
      { type: 'dynamic-tool', toolCallId: 'c1', state: 'output-available', input: {}, output: 'x' },
      { type: 'tool-', toolCallId: 'c2', state: 'output-available' },
      { type: 7, toolCallId: 'c3' },
      { type: 'tool-grep', state: 'output-available' },
      { type: 'data-tool', toolCallId: 'c4' },
      null,
    ]
    expect(aiSdkUi.walk({ messages: [null, { id: 'a', role: 'assistant', parts }] }).items).toEqual([])
  })
})

describe('AG-UI events that are no call of the agent', () => {
  const start = (id: string, extra: object = {}) => data({ type: 'TOOL_CALL_START', toolCallId: id, toolCallName: 'read_file', ...extra })
  const args = (id: string, delta: unknown) => data({ type: 'TOOL_CALL_ARGS', toolCallId: id, delta })
  const end = (id: string) => data({ type: 'TOOL_CALL_END', toolCallId: id })
  const result = (id: string) => data({ type: 'TOOL_CALL_RESULT', messageId: `r_${id}`, toolCallId: id, content: 'x' })

  test('calls of one message are one step, counted in the order they started; unnamed and unknown calls are none', () => {
    const stream = [
      start('c1', { parentMessageId: 'm1' }),
      start('c2', { parentMessageId: 'm1' }),
      args('c1', '{"n":1}'),
      args('c1', 7),
      args('unknown', '{}'),
      end('c1'),
      end('c1'),
      end('unknown'),
      args('c2', '{"n":2}'),
      end('c2'),
      result('c2'),
      start('c3', { toolCallName: '' }),
      data({ type: 'TOOL_CALL_RESULT', content: 'no call' }),
      data({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'm1', delta: 'TOOL_CALL_ in text' }),
    ]
    const guard = createWireGuard()
    const reading = guard.openStream(run([{ id: 'u', role: 'user', content: 'go' }]), 'ag-ui', RECOMMENDED_CONFIG)!
    expect(
      ofType(
        stream.flatMap((piece) => reading.push(piece)),
        'call',
      ),
    ).toEqual([])
    expect(ofType(reading.push(result('c1')), 'call').map((e) => e.canonicalArguments)).toEqual(['{"n":1}', '{"n":2}'])
    // Without a parent message, a call is a message, and a step, of its own.
    expect(ofType(reading.push(start('c4') + end('c4') + result('c4')), 'call').map((e) => e.canonicalArguments)).toEqual([''])
  })

  test('an answer that lacks a call ends the walk', () => {
    const call = (id: string) => ({ id, type: 'function', function: { name: 'grep', arguments: '{}' } })
    const messages = [{ id: 'a', role: 'assistant', toolCalls: [call('c1'), call('c2')] }, { id: 'r1', role: 'tool', toolCallId: 'c1', content: 'x' }, null]
    expect(agUi.walk({ threadId: 't', runId: 'r', messages }).items).toEqual([])
  })
})

describe('which streams are read, for which agent', () => {
  const assistant = (id: string, n: number) => ({
    id,
    role: 'assistant',
    parts: Array.from({ length: n }, (_, i) => ({ type: 'tool-read_file', toolCallId: `c${i}`, state: 'output-available', input: { path: 'a' }, output: 'x' })),
  })

  test("a chat that already carries the guard's reminders is the page's own: its stream is left to it", () => {
    const guard = createWireGuard()
    expect(guard.openStream(chat([user('u', 'go'), assistant('a', 1), user('r', GENTLE)]), 'ui-message-stream', RECOMMENDED_CONFIG)).toBeUndefined()
    expect(guard.openStream(chat([user('u', 'go')]), 'ui-message-stream', RECOMMENDED_CONFIG)).toBeUndefined()
  })

  test('a chat the page took over guarding is left to it too', () => {
    const guard = createWireGuard()
    guard.inspect(chat([user('u', 'go'), assistant('a', 3)]), RECOMMENDED_CONFIG)
    guard.inspect(chat([user('u', 'go'), assistant('a', 3), user('r', GENTLE)]), RECOMMENDED_CONFIG)
    expect(guard.openStream(chat([user('u', 'go'), assistant('a', 3)]), 'ui-message-stream', RECOMMENDED_CONFIG)).toBeUndefined()
  })

  test('calls of the request nobody inspected are counted when its stream opens, and no later request gets their reminder', () => {
    const guard = createWireGuard()
    const request = chat([user('u', 'go'), assistant('a', 3)])
    const reading = guard.openStream(request, 'ui-message-stream', RECOMMENDED_CONFIG)!
    const events = reading.push('')
    expect(ofType(events, 'agent')).toHaveLength(1)
    expect(ofType(events, 'call')).toHaveLength(3)
    expect(guard.inspect(request, RECOMMENDED_CONFIG)!.body).toBeUndefined()
  })

  test('a step streamed while another request forked the history is put after what that request kept', () => {
    const guard = createWireGuard()
    const reading = guard.openStream(chat([user('u', 'go')]), 'ui-message-stream', RECOMMENDED_CONFIG)!
    const input = (id: string) => data({ type: 'tool-input-available', toolCallId: id, toolName: 'read_file', input: { path: 'a' } })
    const output = (id: string) => data({ type: 'tool-output-available', toolCallId: id, output: 'x' })
    reading.push(data({ type: 'start-step' }) + input('s1') + input('s2') + output('s1'))
    // The page edited its first message: the history seen is dropped and rebuilt from the request.
    guard.inspect(chat([user('u', 'go again'), assistant('a', 1)], 'chat_1'), RECOMMENDED_CONFIG)
    expect(ofType(reading.push(output('s2')), 'call')).toHaveLength(1)
    // The next request holds the kept step, then the streamed one: all of it was seen.
    const part = (id: string) => ({ type: 'tool-read_file', toolCallId: id, state: 'output-available', input: { path: 'a' }, output: 'x' })
    const next = guard.inspect(chat([user('u', 'go again'), { id: 'a', role: 'assistant', parts: [part('c0'), { type: 'step-start' }, part('s1'), part('s2')] }]), RECOMMENDED_CONFIG)!
    expect(next.events.map((e) => e.type)).toEqual(['request'])
  })
})
