// The cheap test before parsing (engine/wire/detect.ts): a body without a hint of a tool-call
// marker is let through on substring searches alone, and only a body with one is scanned by the
// marker regex.
import { afterEach, describe, expect, test, vi } from 'vitest'
import { mayHoldToolCall, TOOL_CALL_MARKER } from '../../../engine/wire/detect.ts'

afterEach(() => void vi.restoreAllMocks())

/** Whether `body` may hold a tool call, and how often the marker regex ran to say so. */
function checked(body: string): readonly [boolean, number] {
  const regex = vi.spyOn(TOOL_CALL_MARKER, 'test')
  const verdict = mayHoldToolCall(body)
  const runs = regex.mock.calls.length
  regex.mockRestore()
  return [verdict, runs]
}

describe('a body without a hint of a marker', () => {
  test.each([
    ['no underscore, no Call', JSON.stringify({ data: 'x'.repeat(1_000) })],
    ['prose with call in lower case', JSON.stringify({ text: 'we shall call them all, Carl' })],
    ['underscores but neither hint after one', '{"user_name":"a","is_set":true}'],
    ['Call but neither hint with it', '{"Caller":"x","CallBack":1}'],
  ])('is ruled out without the regex: %s', (_, body) => {
    expect(checked(body)).toEqual([false, 0])
  })
})

describe('a body with a hint', () => {
  test.each([
    ['_call', '{"last_call_at":1}', false],
    ['_use"', '{"was_use":"y"}', false],
    ['nCall"', '{"onCall":"x","returnCall":1}', false],
    ['CallId"', '{"lastCallId":"c"}', false],
    ['a marker', '{"messages":[{"tool_calls":[]}]}', true],
    ['a marker of the Call pair only', '{"parts":[{"functionCall":{}}]}', true],
  ])('is scanned by the regex once: %s', (_, body, verdict) => {
    expect(checked(body)).toEqual([verdict, 1])
  })
})
