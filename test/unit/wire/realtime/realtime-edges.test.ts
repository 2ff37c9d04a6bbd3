// What a realtime session never reads, how its agent is named, and how much it keeps.
import { describe, expect, test } from 'vitest'
import { RECOMMENDED_CONFIG } from '../../../../engine/index.ts'
import { createWireGuard, REALTIME_PROTOCOLS, type RealtimeSession, type WireEvent } from '../../../../engine/wire/index.ts'
import { functionCallOutput, functionCallResponse, sessionCreated, type RealtimeEvent } from '../../../fixtures/realtime/openai-events.ts'

const text = (event: RealtimeEvent) => JSON.stringify(event)
const labelOf = (events: readonly WireEvent[]) => events.flatMap((e) => (e.type === 'agent' ? [e.label] : []))

/** One call answered, in a session opened with `created`: the events of its result. */
function oneCall(session: RealtimeSession, name = 'read_file', args = '{}'): readonly WireEvent[] {
  const call = functionCallResponse(name, args)
  for (const event of call.events) session.received(text(event), RECOMMENDED_CONFIG)
  return session.sent(text(functionCallOutput(call.callId, 'x')), RECOMMENDED_CONFIG).events
}

describe('what a realtime session never parses', () => {
  test('audio and other kinds the guard does not read are told by their head: broken JSON after it is never parsed', () => {
    const session = createWireGuard().openRealtime('openai-realtime', 'ws://x/v1/realtime')
    session.received(text(sessionCreated()), RECOMMENDED_CONFIG)
    expect(session.sent('{"type":"input_audio_buffer.append","audio":"AAAA', RECOMMENDED_CONFIG)).toEqual({ reminders: [], events: [] })
    expect(session.received('{"type":"response.output_audio.delta","delta":"AAAA', RECOMMENDED_CONFIG)).toEqual([])
    const gemini = createWireGuard().openRealtime('gemini-live', 'ws://x/BidiGenerateContent')
    expect(gemini.sent('{"realtimeInput":{"audio":{"data":"AAAA', RECOMMENDED_CONFIG)).toEqual({ reminders: [], events: [] })
  })

  test('a message whose kind is not first is parsed to learn it; text that is no JSON object is left', () => {
    const session = createWireGuard().openRealtime('openai-realtime', 'ws://x/v1/realtime')
    session.received(JSON.stringify({ event_id: 'e1', type: 'session.created', session: null }), RECOMMENDED_CONFIG)
    session.received(JSON.stringify({ event_id: 'e2', type: 'response.output_item.done', item: { type: 'function_call', call_id: 'c1', name: 'read_file', arguments: '{}' } }), RECOMMENDED_CONFIG)
    expect(
      session
        .sent(JSON.stringify({ event_id: 'e3', type: 'conversation.item.create', item: { type: 'function_call_output', call_id: 'c1', output: 'x' } }), RECOMMENDED_CONFIG)
        .events.map((e) => e.type),
    ).toEqual(['agent', 'call'])
    for (const other of ['not json', '[1]', '{"type":"abc', '{"event_id":"e4","type":"response.create"}', '{"event_id":"e5"}', `{"type":"${'x'.repeat(200)}"}`])
      expect(session.sent(other, RECOMMENDED_CONFIG)).toEqual({ reminders: [], events: [] })
    expect(session.sent(JSON.stringify({ type: 'session.update', session: 'x' }), RECOMMENDED_CONFIG)).toEqual({ reminders: [], events: [] })
    expect(session.sent(JSON.stringify({ type: 'conversation.item.create', item: 'x' }), RECOMMENDED_CONFIG)).toEqual({ reminders: [], events: [] })
  })
})

describe("a realtime session's agent", () => {
  test("is named from the instructions' first line, cut at 60 characters", () => {
    const session = createWireGuard().openRealtime('openai-realtime', 'ws://x/v1/realtime?model=m')
    session.received(text(sessionCreated(`  ${'word '.repeat(20)}\nsecond line`)), RECOMMENDED_CONFIG)
    expect(labelOf(oneCall(session))).toEqual([`${'word '.repeat(12)}…`])
  })

  test("else from the address's model, else by its protocol's name", () => {
    const named = createWireGuard().openRealtime('openai-realtime', 'ws://x/v1/realtime?model=gpt%2Drealtime&x=1')
    named.received(text(sessionCreated()), RECOMMENDED_CONFIG)
    expect(labelOf(oneCall(named))).toEqual(['OpenAI Realtime session (gpt-realtime)'])
    const broken = createWireGuard().openRealtime('openai-realtime', 'ws://x/v1/realtime?model=%E0')
    broken.received(JSON.stringify({ type: 'session.created', session: { instructions: '\n' } }), RECOMMENDED_CONFIG)
    expect(labelOf(oneCall(broken))).toEqual(['OpenAI Realtime session (%E0)'])
    const bare = createWireGuard().openRealtime('openai-realtime', 'ws://x/v1/realtime')
    bare.received(JSON.stringify({ type: 'session.created', session: {} }), RECOMMENDED_CONFIG)
    expect(labelOf(oneCall(bare))).toEqual(['OpenAI Realtime session'])
  })

  test('is one per session, listed with its chain by the snapshot, its id after the ids of conversations', () => {
    const guard = createWireGuard()
    const [first, second] = [guard.openRealtime('openai-realtime', 'ws://x/v1/realtime'), guard.openRealtime('openai-realtime', 'ws://x/v1/realtime')]
    for (const session of [first!, second!]) session.received(text(sessionCreated('Same instructions')), RECOMMENDED_CONFIG)
    oneCall(first!)
    oneCall(first!)
    oneCall(second!, 'list')
    expect(guard.snapshot()).toEqual([
      { agentId: 1, format: 'openai-realtime', label: 'Same instructions', tool: 'read_file', canonicalArguments: '{}', count: 2, nextThreshold: 3 },
      { agentId: 2, format: 'openai-realtime', label: 'Same instructions', tool: 'list', canonicalArguments: '{}', count: 1, nextThreshold: 3 },
    ])
    expect(REALTIME_PROTOCOLS).toEqual(['openai-realtime', 'gemini-live'])
  })
})

describe('what a realtime session keeps', () => {
  test('at most 1,024 calls waiting for a result: the oldest is forgotten first', () => {
    const session = createWireGuard().openRealtime('openai-realtime', 'ws://x/v1/realtime')
    session.received(text(sessionCreated()), RECOMMENDED_CONFIG)
    const call = (id: string) => text({ type: 'response.output_item.done', item: { type: 'function_call', call_id: id, name: 'read_file', arguments: '{}' } })
    for (let n = 0; n <= 1_024; n++) session.received(call(`c${n}`), RECOMMENDED_CONFIG)
    expect(session.sent(text(functionCallOutput('c0', 'x')), RECOMMENDED_CONFIG).events).toEqual([])
    expect(session.sent(text(functionCallOutput('c1', 'x')), RECOMMENDED_CONFIG).events.map((e) => e.type)).toEqual(['agent', 'call'])
  })

  test('at most 1,024 results counted: a call id reused after that many is counted again', () => {
    const session = createWireGuard().openRealtime('openai-realtime', 'ws://x/v1/realtime')
    session.received(text(sessionCreated()), RECOMMENDED_CONFIG)
    const answer = (id: string) => {
      session.received(text({ type: 'response.output_item.done', item: { type: 'function_call', call_id: id, name: 'read_file', arguments: `{"n":"${id}"}` } }), RECOMMENDED_CONFIG)
      return session.sent(text(functionCallOutput(id, 'x')), RECOMMENDED_CONFIG).events.filter((e) => e.type === 'call')
    }
    for (let n = 0; n <= 1_024; n++) answer(`c${n}`)
    expect(answer('c0')).toHaveLength(1)
    expect(answer('c1024')).toHaveLength(0)
  })
})
