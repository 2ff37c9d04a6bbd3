// A realtime session parses only the messages whose kind it reads: audio, told by the first
// characters of its text, is never parsed, however large.
import { expect, test, vi } from 'vitest'
import { RECOMMENDED_CONFIG } from '../../../../engine/index.ts'
import * as records from '../../../../engine/records.ts'
import { createWireGuard } from '../../../../engine/wire/index.ts'
import { sessionCreated } from '../../../fixtures/realtime/openai-events.ts'

vi.mock('../../../../engine/records.ts', async (original) => {
  const actual = await original<typeof records>()
  return { ...actual, parseRecord: vi.fn(actual.parseRecord) }
})

test('input_audio_buffer.append, audio deltas and realtimeInput are never parsed; the events the guard reads are', () => {
  const parse = vi.mocked(records.parseRecord)
  const audio = 'A'.repeat(6_400)
  const session = createWireGuard().openRealtime('openai-realtime', 'ws://x/v1/realtime')
  session.received(JSON.stringify(sessionCreated()), RECOMMENDED_CONFIG)
  parse.mockClear()
  session.sent(JSON.stringify({ type: 'input_audio_buffer.append', audio }), RECOMMENDED_CONFIG)
  session.received(JSON.stringify({ type: 'response.output_audio.delta', event_id: 'e1', response_id: 'r1', item_id: 'i1', output_index: 0, content_index: 0, delta: audio }), RECOMMENDED_CONFIG)
  createWireGuard()
    .openRealtime('gemini-live', 'ws://x/BidiGenerateContent')
    .sent(JSON.stringify({ realtimeInput: { audio: { data: audio, mimeType: 'audio/pcm;rate=16000' } } }), RECOMMENDED_CONFIG)
  expect(parse).not.toHaveBeenCalled()
  session.sent('{"type":"conversation.item.create","item":{"type":"function_call_output","call_id":"c1","output":"x"}}', RECOMMENDED_CONFIG)
  expect(parse).toHaveBeenCalledTimes(1)
})
