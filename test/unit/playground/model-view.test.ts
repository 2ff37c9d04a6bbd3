import { describe, expect, test } from 'vitest'
import type { TranscriptEntry } from '../../../playground/agent/transcript.ts'
import { modelView } from '../../../playground/agent/model-view.ts'

const entries: TranscriptEntry[] = [
  { kind: 'system', message: { role: 'system', content: 'sys' } },
  { kind: 'prompt', message: { role: 'user', content: 'go' } },
  { kind: 'assistant', message: { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'grep', arguments: '{"pattern":"x"}' } }] } },
  { kind: 'tool-result', message: { role: 'tool', tool_call_id: 'c1', content: 'out' }, tool: 'grep', isError: false, denied: false },
]
const shape = (rows: ReturnType<typeof modelView>) => rows.map((r) => (r.kind === 'inserted' ? `+${r.role}:${r.text}` : `${r.entry.kind}${r.changed ? '!' : ''}${r.unsent ? '?' : ''}`))

describe('modelView', () => {
  test('without a report from the model, the page entries; what came after the reply is unseen', () => {
    expect(shape(modelView({ entries, sentCount: 2, received: undefined }))).toEqual(['system', 'prompt', 'assistant', 'tool-result?'])
    expect(shape(modelView({ entries, sentCount: 4, received: undefined }))).toEqual(['system', 'prompt', 'assistant', 'tool-result'])
  })

  test('received exactly as sent (keys in another order are the same message)', () => {
    const received = entries.map((e) => JSON.parse(JSON.stringify(e.message)))
    received[3] = { content: 'out', tool_call_id: 'c1', role: 'tool' }
    expect(shape(modelView({ entries, sentCount: 4, received }))).toEqual(['system', 'prompt', 'assistant', 'tool-result'])
  })

  test('a message inserted on the way shows in place', () => {
    const received = [...entries.map((e) => e.message), { role: 'user', content: [{ type: 'text', text: 'stop repeating' }] }]
    expect(shape(modelView({ entries, sentCount: 4, received }))).toEqual(['system', 'prompt', 'assistant', 'tool-result', '+user:stop repeating'])
  })

  test('a message changed on the way is flagged, a dropped one too', () => {
    const changed = [entries[0]!.message, entries[1]!.message, entries[2]!.message, { role: 'tool', tool_call_id: 'c1', content: 'OUT' }]
    expect(shape(modelView({ entries, sentCount: 4, received: changed }))).toEqual(['system', 'prompt', 'assistant', 'tool-result!'])
    const dropped = entries.slice(0, 3).map((e) => e.message)
    expect(shape(modelView({ entries, sentCount: 4, received: dropped }))).toEqual(['system', 'prompt', 'assistant', 'tool-result!'])
  })
})
