// Wire formats that send a call's arguments as JSON text: two ids that differ past 2^53 are two
// different calls, as the page's agent made them, not a repeat.
import { describe, expect, test } from 'vitest'
import { RECOMMENDED_CONFIG } from '../../../engine/index.ts'
import { createWireGuard, type WireEvent } from '../../../engine/wire/index.ts'
import { BUILDERS, requests, type Script } from '../../fixtures/wire/conversations.ts'

const get = (id: string) => ({ calls: [{ name: 'get_item', args: { id } }] })
const SCRIPT: Script = { turns: [{ prompt: 'Show me the two items.' }, get('A'), get('B'), get('B'), get('B'), get('B')] }

/** The requests as the page sends them: each id a number past 2^53, written in the arguments' JSON text. */
function bodies(format: 'openai-chat' | 'openai-responses'): string[] {
  return requests(SCRIPT, BUILDERS[format]).map((body) =>
    JSON.stringify(body).replaceAll('\\"A\\"', '1800000000000000001').replaceAll('\\"B\\"', '1800000000000000002'),
  )
}

describe.each(['openai-chat', 'openai-responses'] as const)('%s: arguments as JSON text', (format) => {
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
