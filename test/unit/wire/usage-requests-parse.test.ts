// A request read for waste is parsed once (docs/zero-code.md, "Waste"): the reading of its response
// takes the body the wire guard parsed for the request's analysis, only for that very text, only
// while a detector is on, and only once.
import { describe, expect, test, vi } from 'vitest'
import { RECOMMENDED_CONFIG } from '../../../engine/index.ts'
import { parseRecord } from '../../../engine/records.ts'
import { createWireGuard } from '../../../engine/wire/index.ts'
import { configWith } from './support/detector-runs.ts'

vi.mock('../../../engine/records.ts', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../../engine/records.ts')>()
  return { ...original, parseRecord: vi.fn(original.parseRecord) }
})

const on = configWith({ similar: { threshold: 0.8, minCalls: 3 } })
/** A Chat Completions request with a completed tool call: its analysis parses it. */
const chat = JSON.stringify({
  model: 'm',
  messages: [
    { role: 'user', content: 'find it' },
    { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'search', arguments: '{"q":"a"}' } }] },
    { role: 'tool', tool_call_id: 'c1', content: 'nothing' },
  ],
})
/** How often a body was parsed while `run` ran. */
function parses(run: () => void): number {
  const counted = vi.mocked(parseRecord)
  counted.mockClear()
  run()
  return counted.mock.calls.length
}

describe('the body of a request read for waste', () => {
  test('is parsed once for its analysis and its response reading', () => {
    const guard = createWireGuard()
    expect(parses(() => expect(guard.inspect(chat, on)?.format).toBe('openai-chat'))).toBe(1)
    expect(parses(() => expect(guard.openResponse(chat, on)).toBeDefined())).toBe(0)
  })

  test("is taken only for the very text parsed: another request's body is read as its own", () => {
    const guard = createWireGuard()
    guard.inspect(chat, on)
    const notLlm = JSON.stringify({ query: 'x', messages: 'none' })
    expect(parses(() => expect(guard.openResponse(notLlm, on)).toBeUndefined())).toBe(1)
  })

  test('is taken once: the next reading of the same text parses it again', () => {
    const guard = createWireGuard()
    guard.inspect(chat, on)
    guard.openResponse(chat, on)
    expect(parses(() => expect(guard.openResponse(chat, on)).toBeDefined())).toBe(1)
  })

  test('is not kept while no detector is on', () => {
    const guard = createWireGuard()
    guard.inspect(chat, RECOMMENDED_CONFIG)
    expect(parses(() => expect(guard.openResponse(chat, on)).toBeDefined())).toBe(1)
    expect(guard.openResponse(chat, RECOMMENDED_CONFIG)).toBeUndefined()
  })
})
