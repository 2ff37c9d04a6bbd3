// An OpenAI Realtime session read through the wire guard: calls from the server's events, results
// from the client's, a reminder event right after the result that made it due.
import { describe, expect, test } from 'vitest'
import { RECOMMENDED_CONFIG, resolveConfig } from '../../../../engine/index.ts'
import { createWireGuard, type RealtimeSession, type WireEvent } from '../../../../engine/wire/index.ts'
import { functionCallOutput, functionCallResponse, reminderItem, sessionCreated, sessionUpdated, sessionObject, textResponse, type RealtimeEvent } from '../../../fixtures/realtime/openai-events.ts'
import { detailed, GENTLE } from '../../../fixtures/wire/reminders.ts'

const ADDRESS = 'wss://api.openai.com/v1/realtime?model=gpt-realtime'
const INSTRUCTIONS = 'You are a voice agent that reads files.\nBe brief.'
const ARGS = '{"path":"a.txt"}'
const text = (event: RealtimeEvent) => JSON.stringify(event)
const ofType = <T extends WireEvent['type']>(events: readonly WireEvent[], type: T) => events.filter((e): e is Extract<WireEvent, { type: T }> => e.type === type)

/** A session opened as the Agents SDK opens one: the server's session.created, the client's session.update, the server's echo. */
function openSession(session: RealtimeSession, config = RECOMMENDED_CONFIG) {
  const events = [...session.received(text(sessionCreated()), config)]
  const update = session.sent(text({ type: 'session.update', session: { type: 'realtime', instructions: INSTRUCTIONS } }), config)
  events.push(...update.events, ...session.received(text(sessionUpdated(sessionObject(INSTRUCTIONS))), config))
  return { events, sent: update.reminders }
}

/** The model calls `name` with `args` `times` times; the client answers each with `output(n)`. */
function loop(session: RealtimeSession, times: number, output = (_n: number) => 'hello', args = ARGS, config = RECOMMENDED_CONFIG) {
  const events: WireEvent[] = []
  const sentAfter: string[][] = []
  for (let n = 1; n <= times; n++) {
    const call = functionCallResponse('read_file', args)
    for (const event of call.events) events.push(...session.received(text(event), config))
    const result = session.sent(text(functionCallOutput(call.callId, output(n))), config)
    events.push(...result.events)
    sentAfter.push([...result.reminders])
    // The SDK asks for the next response in the same call; nothing is due after it.
    expect(session.sent(text({ type: 'response.create' }), config)).toEqual({ reminders: [], events: [] })
  }
  return { events, sentAfter }
}

describe('an OpenAI Realtime session', () => {
  test('six identical calls: the gentle reminder event after the 3rd result, the detailed one after the 5th, each once', () => {
    const session = createWireGuard().openRealtime('openai-realtime', ADDRESS)
    expect(openSession(session)).toEqual({ events: [], sent: [] })
    // An update without instructions keeps the ones before.
    expect(session.sent(text({ type: 'session.update', session: { type: 'realtime' } }), RECOMMENDED_CONFIG)).toEqual({ reminders: [], events: [] })
    const { events, sentAfter } = loop(session, 6)
    expect(sentAfter.map((sent) => sent.map((message) => JSON.parse(message)))).toEqual([[], [], [reminderItem(GENTLE)], [], [reminderItem(detailed('read_file', 5, ARGS))], []])
    expect(ofType(events, 'agent').map((e) => [e.agentId, e.format, e.label])).toEqual([[1, 'openai-realtime', 'You are a voice agent that reads files.']])
    expect(ofType(events, 'call').map((e) => [e.tool, e.canonicalArguments, e.count, e.seq])).toEqual([1, 2, 3, 4, 5, 6].map((n) => ['read_file', ARGS, n, n]))
    expect(ofType(events, 'reminder').map((e) => [e.level, e.count, e.seq, e.placement])).toEqual([
      ['gentle', 3, 3, expect.stringMatching(/^conversation\.item\.create after call_/)],
      ['detailed', 5, 5, expect.stringMatching(/^conversation\.item\.create after call_/)],
    ])
    expect(session.received(text(textResponse('done')[0]!), RECOMMENDED_CONFIG)).toEqual([])
  })

  test('a call is counted once, though three events carry it', () => {
    const session = createWireGuard().openRealtime('openai-realtime', ADDRESS)
    openSession(session)
    const call = functionCallResponse('read_file', ARGS)
    for (const event of call.events) session.received(text(event), RECOMMENDED_CONFIG)
    expect(ofType(session.sent(text(functionCallOutput(call.callId, 'x')), RECOMMENDED_CONFIG).events, 'call')).toHaveLength(1)
    // The same result again, and the server's events again: nothing more is counted.
    for (const event of call.events) session.received(text(event), RECOMMENDED_CONFIG)
    expect(session.sent(text(functionCallOutput(call.callId, 'x')), RECOMMENDED_CONFIG)).toEqual({ reminders: [], events: [] })
  })

  test('the call is known from whichever event carries its name and arguments', () => {
    const session = createWireGuard().openRealtime('openai-realtime', ADDRESS)
    openSession(session)
    // Beta servers leave the name out of function_call_arguments.done; output_item.done has it.
    session.received(text({ type: 'response.function_call_arguments.done', call_id: 'call_a', arguments: ARGS }), RECOMMENDED_CONFIG)
    expect(session.sent(text(functionCallOutput('call_a', 'x')), RECOMMENDED_CONFIG).events).toEqual([])
    session.received(text({ type: 'response.function_call_arguments.done', call_id: 'call_b', arguments: ARGS }), RECOMMENDED_CONFIG)
    session.received(text({ type: 'response.output_item.done', item: { type: 'function_call', call_id: 'call_b', name: 'read_file', status: 'completed' } }), RECOMMENDED_CONFIG)
    expect(ofType(session.sent(text(functionCallOutput('call_b', 'x')), RECOMMENDED_CONFIG).events, 'call').map((e) => e.tool)).toEqual(['read_file'])
    // From response.done alone.
    session.received(text({ type: 'response.done', response: { output: [{ type: 'function_call', call_id: 'call_c', name: 'list', arguments: '{}' }, { type: 'message' }] } }), RECOMMENDED_CONFIG)
    expect(ofType(session.sent(text(functionCallOutput('call_c', 'x')), RECOMMENDED_CONFIG).events, 'call').map((e) => e.tool)).toEqual(['list'])
    // An item still in progress, a done event without a response, events without a call id: no call.
    session.received(text({ type: 'response.output_item.done', item: { type: 'function_call', call_id: 'call_d', name: 'x', arguments: '{}', status: 'incomplete' } }), RECOMMENDED_CONFIG)
    session.received(text({ type: 'response.done' }), RECOMMENDED_CONFIG)
    session.received(text({ type: 'response.function_call_arguments.done', name: 'x', arguments: '{}' }), RECOMMENDED_CONFIG)
    expect(session.sent(text(functionCallOutput('call_d', 'x')), RECOMMENDED_CONFIG).events).toEqual([])
    // A name with no arguments yet, and a result without a call id: nothing to count.
    session.received(text({ type: 'response.output_item.done', item: { type: 'function_call', call_id: 'call_e', name: 'x' } }), RECOMMENDED_CONFIG)
    expect(session.sent(text(functionCallOutput('call_e', 'x')), RECOMMENDED_CONFIG).events).toEqual([])
    expect(session.sent(text({ type: 'conversation.item.create', item: { type: 'function_call_output', output: 'x' } }), RECOMMENDED_CONFIG).events).toEqual([])
  })

  test('before the server opens the session, nothing is counted and nothing sent', () => {
    const session = createWireGuard().openRealtime('openai-realtime', ADDRESS)
    const call = functionCallResponse('read_file', ARGS)
    for (let n = 0; n < 4; n++) {
      for (const event of call.events) session.received(text(event), RECOMMENDED_CONFIG)
      expect(session.sent(text(functionCallOutput(call.callId, 'x')), RECOMMENDED_CONFIG)).toEqual({ reminders: [], events: [] })
    }
  })

  test('a user turn starts the chain over: typed text, or speech the server committed; a guard reminder the page sent does not', () => {
    const session = createWireGuard().openRealtime('openai-realtime', ADDRESS)
    openSession(session)
    loop(session, 2)
    const typed = session.sent(text({ type: 'conversation.item.create', item: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'again' }] } }), RECOMMENDED_CONFIG)
    expect(typed.events.map((e) => e.type)).toEqual(['chain-reset'])
    expect(session.sent(text(reminderItem(GENTLE)), RECOMMENDED_CONFIG).events).toEqual([])
    loop(session, 2)
    expect(session.received(text({ type: 'input_audio_buffer.committed', item_id: 'item_x' }), RECOMMENDED_CONFIG).map((e) => e.type)).toEqual(['chain-reset'])
    // A second turn right after resets nothing more; a system message is no user turn.
    expect(session.received(text({ type: 'input_audio_buffer.committed', item_id: 'item_y' }), RECOMMENDED_CONFIG)).toEqual([])
    expect(session.sent(text({ type: 'conversation.item.create', item: { type: 'message', role: 'system', content: [{ type: 'input_text', text: 'x' }] } }), RECOMMENDED_CONFIG).events).toEqual([])
    expect(ofType(loop(session, 3).events, 'reminder')).toHaveLength(1)
  })

  test('a user turn before any call resets nothing', () => {
    const session = createWireGuard().openRealtime('openai-realtime', ADDRESS)
    openSession(session)
    expect(session.received(text({ type: 'input_audio_buffer.committed' }), RECOMMENDED_CONFIG)).toEqual([])
    expect(session.sent(text({ type: 'conversation.item.create', item: { type: 'message', role: 'user', content: 'hi' } }), RECOMMENDED_CONFIG)).toEqual({ reminders: [], events: [] })
  })

  test('result-aware: six calls whose results differ remind no one', () => {
    const config = resolveConfig({ resultAware: true })
    const session = createWireGuard().openRealtime('openai-realtime', ADDRESS)
    openSession(session, config)
    const { sentAfter, events } = loop(session, 6, (n) => `line ${n}`, ARGS, config)
    expect(sentAfter.flat()).toEqual([])
    expect(ofType(events, 'call')).toHaveLength(6)
    const same = createWireGuard().openRealtime('openai-realtime', ADDRESS)
    openSession(same, config)
    expect(loop(same, 3, () => 'same', ARGS, config).sentAfter[2]).toEqual([JSON.stringify(reminderItem(GENTLE))])
  })

  test('stopAfter cannot stop a call the client runs itself: it is shown as would-block, and the result is counted', () => {
    const config = resolveConfig({ stopAfter: 3 })
    const session = createWireGuard().openRealtime('openai-realtime', ADDRESS)
    openSession(session, config)
    const { events } = loop(session, 5, () => 'same', ARGS, config)
    expect(ofType(events, 'blocked').map((e) => [e.count, e.wouldBlock])).toEqual([
      [3, true],
      [4, true],
    ])
    expect(ofType(events, 'call')).toHaveLength(5)
  })
})
