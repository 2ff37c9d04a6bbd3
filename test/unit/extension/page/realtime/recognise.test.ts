// Which addresses may be realtime sessions: told from the path alone, never the query or fragment.
import { expect, test } from 'vitest'
import { realtimeProtocolOf } from '../../../../../extension/src/page/realtime/recognise.ts'

test.each([
  ['wss://api.openai.com/v1/realtime?model=gpt-realtime', 'openai-realtime'],
  ['wss://api.openai.com/v1/realtime?call_id=rtc_1', 'openai-realtime'],
  ['wss://my.openai.azure.com/openai/realtime?api-version=2025-04-01-preview&deployment=d', 'openai-realtime'],
  ['ws://127.0.0.1:8080/v1/realtime/', 'openai-realtime'],
  ['/v1/realtime#x', 'openai-realtime'],
  ['wss://generativelanguage.googleapis.com/ws/google.ai.generativelanguage.v1beta.GenerativeService.BidiGenerateContent?key=k', 'gemini-live'],
  ['wss://generativelanguage.googleapis.com/ws/google.ai.generativelanguage.v1alpha.GenerativeService.BidiGenerateContentConstrained?access_token=t', 'gemini-live'],
  ['wss://chat.example/socket', undefined],
  ['wss://chat.example/realtime-updates', undefined],
  ['wss://chat.example/socket?next=/v1/realtime', undefined],
  ['wss://chat.example/socket#/realtime', undefined],
  ['wss://chat.example/socket?method=BidiGenerateContent', undefined],
  ['realtime', undefined],
])('%s: %s', (address, protocol) => {
  expect(realtimeProtocolOf(address)).toBe(protocol)
})
