// A Gemini Live session read through the wire guard: calls from the server's `toolCall`, results
// from the client's `toolResponse`, a reminder turn right after the response that made it due.
import { describe, expect, test } from 'vitest'
import { RECOMMENDED_CONFIG, resolveConfig } from '../../../../engine/index.ts'
import { createWireGuard, type RealtimeSession, type WireEvent } from '../../../../engine/wire/index.ts'
import { reminderTurn, setup, setupComplete, toolCall, toolResponse, type LiveMessage } from '../../../fixtures/realtime/gemini-messages.ts'
import { detailed, GENTLE } from '../../../fixtures/wire/reminders.ts'

const ADDRESS = 'wss://generativelanguage.googleapis.com/ws/google.ai.generativelanguage.v1beta.GenerativeService.BidiGenerateContent?key=k'
const text = (message: LiveMessage) => JSON.stringify(message)
const ofType = <T extends WireEvent['type']>(events: readonly WireEvent[], type: T) => events.filter((e): e is Extract<WireEvent, { type: T }> => e.type === type)

function open(session: RealtimeSession, instruction?: string) {
  expect(session.sent(text(setup('gemini-live-2.5-flash', instruction)), RECOMMENDED_CONFIG)).toEqual({ reminders: [], events: [] })
  expect(session.received(text(setupComplete()), RECOMMENDED_CONFIG)).toEqual([])
}

function loop(session: RealtimeSession, times: number, response = (_n: number): Record<string, unknown> => ({ output: 'hello' }), config = RECOMMENDED_CONFIG) {
  const events: WireEvent[] = []
  const sentAfter: string[][] = []
  for (let n = 1; n <= times; n++) {
    const call = toolCall('read_file', { path: 'a.txt' })
    events.push(...session.received(text(call.message), config))
    const result = session.sent(text(toolResponse(call.callId, 'read_file', response(n))), config)
    events.push(...result.events)
    sentAfter.push([...result.reminders])
  }
  return { events, sentAfter }
}

describe('a Gemini Live session', () => {
  test('six identical calls: a reminder turn after the 3rd and the 5th tool responses', () => {
    const session = createWireGuard().openRealtime('gemini-live', ADDRESS)
    open(session, 'You look things up.\nQuickly.')
    const { events, sentAfter } = loop(session, 6)
    expect(sentAfter.map((sent) => sent.map((message) => JSON.parse(message)))).toEqual([[], [], [reminderTurn(GENTLE)], [], [reminderTurn(detailed('read_file', 5, '{"path":"a.txt"}'))], []])
    expect(ofType(events, 'agent').map((e) => [e.format, e.label])).toEqual([['gemini-live', 'You look things up.']])
    expect(ofType(events, 'reminder').map((e) => e.placement)).toEqual([expect.stringMatching(/^clientContent after function-call_/), expect.stringMatching(/^clientContent after function-call_/)])
  })

  test("named after the setup's model without a system instruction; a response without an id answers the oldest call of its name", () => {
    const session = createWireGuard().openRealtime('gemini-live', ADDRESS)
    open(session)
    session.received(
      text({ toolCall: { functionCalls: [{ id: 'a', name: 'read_file', args: { path: 'x' } }, { id: 'b', name: 'read_file', args: { path: 'y' } }, { name: 'no_id' }, { id: 'no_name' }] } }),
      RECOMMENDED_CONFIG,
    )
    const { events } = session.sent(text({ toolResponse: { functionResponses: [{ name: 'read_file', response: { output: 1 } }, { name: 'other', response: {} }, 'x'] } }), RECOMMENDED_CONFIG)
    expect(ofType(events, 'agent').map((e) => e.label)).toEqual(['Gemini Live session (gemini-live-2.5-flash)'])
    expect(ofType(events, 'call').map((e) => e.canonicalArguments)).toEqual(['{"path":"x"}'])
  })

  test('a cancelled call is not counted; a response with an error is an error call', () => {
    const session = createWireGuard().openRealtime('gemini-live', ADDRESS)
    open(session)
    const call = toolCall('read_file', {})
    session.received(text(call.message), RECOMMENDED_CONFIG)
    session.received(text({ toolCallCancellation: { ids: [call.callId, 3] } }), RECOMMENDED_CONFIG)
    expect(session.sent(text(toolResponse(call.callId, 'read_file', {})), RECOMMENDED_CONFIG).events).toEqual([])
    const failed = toolCall('read_file', {})
    session.received(text(failed.message), RECOMMENDED_CONFIG)
    expect(ofType(session.sent(text(toolResponse(failed.callId, 'read_file', { error: 'no such file' })), RECOMMENDED_CONFIG).events, 'call').map((e) => e.isError)).toEqual([true])
    // An output beside the error, a response that is no object, a call without arguments: no error.
    const calls = [toolCall('read_file', {}), toolCall('read_file', {})]
    session.received(text({ toolCall: { functionCalls: [{ id: 'bare', name: 'list' }] } }), RECOMMENDED_CONFIG)
    for (const call of calls) session.received(text(call.message), RECOMMENDED_CONFIG)
    const responses = {
      toolResponse: {
        functionResponses: [
          { id: calls[0]!.callId, response: { error: 'x', output: 'y' } },
          { id: calls[1]!.callId, response: 'text' },
          { id: 'bare', response: {} },
        ],
      },
    }
    expect(ofType(session.sent(text(responses), RECOMMENDED_CONFIG).events, 'call').map((e) => [e.tool, e.isError, e.canonicalArguments])).toEqual([
      ['read_file', false, '{}'],
      ['read_file', false, '{}'],
      ['list', false, '{}'],
    ])
  })

  test('a user turn starts the chain over; the guard reminder turn and the model turns the page replays do not', () => {
    const session = createWireGuard().openRealtime('gemini-live', ADDRESS)
    open(session)
    loop(session, 2)
    expect(session.sent(text(reminderTurn(GENTLE)), RECOMMENDED_CONFIG).events).toEqual([])
    expect(session.sent(text({ clientContent: { turns: [{ role: 'model', parts: [{ text: 'hi' }] }, 'x'], turnComplete: false } }), RECOMMENDED_CONFIG).events).toEqual([])
    expect(session.sent(text({ setup: {} }), RECOMMENDED_CONFIG).events).toEqual([])
    expect(session.sent(text({ clientContent: { turns: [{ role: 'user', parts: [{ text: 'again' }] }], turnComplete: true } }), RECOMMENDED_CONFIG).events.map((e) => e.type)).toEqual(['chain-reset'])
    expect(ofType(loop(session, 3).events, 'reminder')).toHaveLength(1)
  })

  test('messages with no key the guard reads, or with several keys, say nothing', () => {
    const session = createWireGuard().openRealtime('gemini-live', ADDRESS)
    open(session)
    for (const message of ['{"serverContent":{"turnComplete":true}}', ' {"toolCall":{}}', '{}', ' {}', '{"a":1,"b":2}', ' {"a":1,"b":2}', '{"setup":1}'])
      expect([session.received(message, RECOMMENDED_CONFIG), session.sent(message, RECOMMENDED_CONFIG)]).toEqual([[], { reminders: [], events: [] }])
    expect(session.received(' {"toolCall":{"functionCalls":[{"id":"z","name":"t","args":{}}]}}', RECOMMENDED_CONFIG)).toEqual([])
    expect(ofType(session.sent(text(toolResponse('z', 't', {})), RECOMMENDED_CONFIG).events, 'call')).toHaveLength(1)
    expect(session.received(text({ toolCall: 'x' }), RECOMMENDED_CONFIG)).toEqual([])
  })

  test('result-aware compares the responses', () => {
    const config = resolveConfig({ resultAware: true })
    const session = createWireGuard().openRealtime('gemini-live', ADDRESS)
    open(session)
    expect(loop(session, 6, (n) => ({ output: n }), config).sentAfter.flat()).toEqual([])
  })
})
