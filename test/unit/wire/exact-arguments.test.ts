// Two ids that differ past 2^53 are two different calls, as the page's agent made them, not a
// repeat: in the formats that send a call's arguments as JSON text and in those that send them as
// objects inside the body.
import { describe, expect, test } from 'vitest'
import { RECOMMENDED_CONFIG } from '../../../engine/index.ts'
import { createWireGuard, type WireEvent } from '../../../engine/wire/index.ts'
import { BUILDERS, requests, type Script } from '../../fixtures/wire/conversations.ts'

const get = (id: string) => ({ calls: [{ name: 'get_item', args: { id } }] })
const SCRIPT: Script = { turns: [{ prompt: 'Show me the two items.' }, get('A'), get('B'), get('B'), get('B'), get('B')] }

/**
 * The requests as the page sends them: each id a number past 2^53, written in the arguments' JSON
 * text (OpenAI's formats) or in the arguments object inside the body (Anthropic, Gemini).
 */
function bodies(format: keyof typeof BUILDERS): string[] {
  const quote = format === 'openai-chat' || format === 'openai-responses' ? '\\"' : '"'
  return requests(SCRIPT, BUILDERS[format]).map((body) => JSON.stringify(body).replaceAll(`${quote}A${quote}`, '1800000000000000001').replaceAll(`${quote}B${quote}`, '1800000000000000002'))
}

describe.each(['openai-chat', 'openai-responses', 'anthropic', 'gemini'] as const)('%s: arguments with ids past 2^53', (format) => {
  test('ids that differ past 2^53 are different calls', () => {
    const guard = createWireGuard()
    const texts = bodies(format)
    expect(texts[texts.length - 1]).toContain('1800000000000000002')
    const events: WireEvent[] = texts.flatMap((text) => guard.inspect(text, RECOMMENDED_CONFIG)?.events ?? [])
    const calls = events.filter((e): e is Extract<WireEvent, { type: 'call' }> => e.type === 'call')
    expect(calls.map((e) => [e.count, e.canonicalArguments])).toEqual([
      [1, '{"id":1800000000000000001}'],
      [1, '{"id":1800000000000000002}'],
      [2, '{"id":1800000000000000002}'],
      [3, '{"id":1800000000000000002}'],
      [4, '{"id":1800000000000000002}'],
    ])
    expect(events.filter((e) => e.type === 'reminder').map((e) => e.type === 'reminder' && [e.level, e.count])).toEqual([['gentle', 3]])
  })
})
