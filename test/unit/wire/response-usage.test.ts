// Reading a response for its usage, calls and answer (docs/zero-code.md, "Waste"): what counts, and
// what is left alone.
import { describe, expect, test } from 'vitest'
import { RECOMMENDED_CONFIG } from '../../../engine/index.ts'
import { createWireGuard } from '../../../engine/wire/index.ts'
import { callKey } from '../../../engine/wire/usage/call-key.ts'
import { createResponseRecords } from '../../../engine/wire/usage/response-records.ts'
import { createUsageReader } from '../../../engine/wire/usage/response-usage.ts'
import { createWasteMarks } from '../../../engine/wire/usage/waste-marks.ts'
import { configWith } from './support/detector-runs.ts'

const read = (text: string, max = 10_000) => {
  const reader = createUsageReader(max)
  reader.push(text)
  return reader.end()
}

describe('a response read for its usage', () => {
  test('Gemini streamed without alt=sse is a JSON array: the last usage wins, every call is kept', () => {
    const chunk = (name: string, total: number) => ({ candidates: [{ content: { parts: [{ functionCall: { name, args: { q: 1 } } }] } }], usageMetadata: { totalTokenCount: total } })
    expect(read(JSON.stringify([chunk('a', 10), chunk('b', 25)]))).toEqual({ tokens: 25, calls: [callKey(undefined, 'a', { q: 1 }), callKey(undefined, 'b', { q: 1 })] })
  })

  test('events that are no JSON, [DONE], leading blank pieces and an unfinished Responses stream are skipped', () => {
    const reader = createUsageReader(10_000)
    expect(reader.push('   ')).toBe(true)
    reader.push('data: not json\n\n')
    reader.push(`data: ${JSON.stringify({ type: 'response.created', response: { status: 'in_progress', output: [{ type: 'function_call', call_id: 'c0', name: 'x' }] } })}\n\n`)
    reader.push(`data: ${JSON.stringify({ choices: [null, { index: 1 }, { delta: { tool_calls: [{ index: 0 }, null] } }], usage: { total_tokens: -3 } })}\n\n`)
    reader.push('data: [DONE]')
    expect(reader.end()).toEqual({ tokens: 0, calls: [] })
  })

  test('an incomplete Responses response still counts its calls; an answer is kept only without calls', () => {
    const response = {
      object: 'response',
      status: 'incomplete',
      output: [
        { type: 'function_call', call_id: 'c1', name: 'x', arguments: '{}' },
        { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'hm' }] },
      ],
      usage: { total_tokens: 7 },
    }
    expect(read(JSON.stringify(response))).toEqual({ tokens: 7, calls: [callKey('c1', 'x', '{}')] })
    expect(read(JSON.stringify({ ...response, status: 'completed', output: [response.output[1], 'x'] }))).toEqual({ tokens: 7, calls: [], answer: 'hm' })
  })

  test('a text past the limit, or no text at all, says nothing', () => {
    const reader = createUsageReader(10)
    expect(reader.push('{"usage":{"total_tokens":5}}')).toBe(false)
    expect(reader.push('more')).toBe(false)
    expect(reader.end()).toBeUndefined()
    expect(createUsageReader(10).end()).toBeUndefined()
    expect(read('{"usage":')).toEqual({ calls: [] })
  })

  test('tokens only from a response that told its usage: told as zero, they are zero; not told, there are none', () => {
    expect(read('{"choices":[],"usage":{"total_tokens":0}}')).toEqual({ tokens: 0, calls: [] })
    expect(read('{"type":"message","content":[],"usage":{"output_tokens":4}}')).toEqual({ tokens: 4, calls: [] })
    expect(read('{"candidates":[],"usageMetadata":{"totalTokenCount":9}}')).toEqual({ tokens: 9, calls: [] })
    expect(read('{"candidates":[],"usageMetadata":{"promptTokenCount":9}}')).toEqual({ calls: [] })
    expect(read('{"choices":[{"message":{"content":"Done."}}]}')).toEqual({ calls: [], answer: 'Done.' })
  })

  test('only requests of the four LLM APIs are read, and only while an opt-in detector is on', () => {
    const guard = createWireGuard()
    const on = configWith({ similar: { threshold: 0.8, minCalls: 3 } })
    const chat = JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hi' }] })
    expect(guard.openResponse(chat, RECOMMENDED_CONFIG)).toBeUndefined()
    expect(guard.openResponse(chat, on)).toBeDefined()
    expect(guard.openResponse(JSON.stringify({ model: 'm', input: 'hi' }), on)).toBeDefined()
    expect(guard.openResponse(JSON.stringify({ contents: [] }), on)).toBeDefined()
    // An AI SDK chat request names no model; a body that is no JSON, or holds none of the names, is not read.
    expect(guard.openResponse(JSON.stringify({ id: 'chat', messages: [], trigger: 'submit-message' }), on)).toBeUndefined()
    expect(guard.openResponse('{"messages": [', on)).toBeUndefined()
    expect(guard.openResponse('{"query":"x"}', on)).toBeUndefined()
    // A response that says nothing of use is not remembered.
    guard.openResponse(chat, on)!.end(1)
  })

  test('the records forget the oldest key first, and a key seen again is the newest', () => {
    const records = createResponseRecords(2)
    records.add({ tokens: 1, calls: ['a', 'b'] }, 10)
    records.add({ tokens: 2, calls: ['a'] }, 20)
    records.add({ tokens: 3, calls: ['c'], answer: 'ok' }, 30)
    expect([records.forCall('a'), records.forCall('b'), records.forCall('c')?.tokens, records.forAnswer('ok')?.at]).toEqual([undefined, undefined, 3, 30])
    records.add({ tokens: 4, calls: ['a'] }, 40)
    expect(records.forCall('a')).toEqual({ at: 40, tokens: 4, response: 4 })
  })
})

describe('the text a response answers with', () => {
  test('Anthropic: only text blocks with text; other blocks and chunks that are no object say nothing', () => {
    const message = {
      type: 'message',
      role: 'assistant',
      content: [{ type: 'thinking', thinking: 'hm' }, { type: 'text' }, { type: 'text', text: 'Done.' }],
      usage: { input_tokens: 3, output_tokens: 4 },
    }
    expect(read(JSON.stringify(message))).toEqual({ tokens: 7, calls: [], answer: 'Done.' })
    expect(read('data: 5\n\ndata: "text"\n\n')).toEqual({ calls: [] })
  })
})

describe('waste marks', () => {
  const agent = { kind: 'wire', id: 1, format: 'openai-chat', label: 'a', engineAgent: {}, engineId: 1, seen: [], seq: 0, handedOver: false, announced: true } as const
  const call = (id: string) => ({ id, name: 'read', arguments: '{}', isError: false })
  const reminder = (wasteMs: number) =>
    ({
      type: 'reminder',
      at: 0,
      agentId: 1,
      seq: 1,
      tool: 'read',
      count: 3,
      level: 'gentle',
      detector: 'repeat',
      wasteMs,
      message: { role: 'user', content: [{ type: 'text', text: 'x' }], source: { kind: 'plugin', plugin: 'repeat-tool-guard', form: 'notice', summary: 'read × 3' } },
    }) as const

  test('a run whose first mark was forgotten, or whose clock went back, reports zero time and no tokens; other events pass as they are', () => {
    const records = createResponseRecords(8)
    records.add({ tokens: 5, calls: [callKey('c1', 'read', '{}')] }, 2_000)
    records.add({ tokens: 6, calls: [callKey('c2', 'read', '{}')] }, 1_000)
    records.add({ tokens: 7, calls: [callKey('c3', 'read', '{}')] }, 3_000)
    const marks = createWasteMarks(records, 2)
    const measured: unknown[] = []
    const wire = { ...agent, seen: [] }
    marks.marked(wire, call('c1'), () => undefined)
    marks.marked(wire, call('c2'), () => measured.push(marks.measured(reminder(1))))
    marks.marked(wire, call('c3'), () => measured.push(marks.measured(reminder(2)), marks.measured({ type: 'fault', at: 0, message: 'x' })))
    expect(measured).toEqual([{ ...reminder(0), wasteTokens: 6 }, reminder(0), { type: 'fault', at: 0, message: 'x' }])
    // Outside a marked call the engine's event is its own.
    expect(marks.measured(reminder(4))).toEqual(reminder(4))
  })

  test('a run whose later responses told no usage has no tokens; one that told some has theirs', () => {
    const records = createResponseRecords(8)
    records.add({ tokens: 5, calls: [callKey('c1', 'read', '{}')] }, 1_000)
    records.add({ calls: [callKey('c2', 'read', '{}')] }, 2_000)
    records.add({ tokens: 0, calls: [callKey('c3', 'read', '{}')] }, 3_000)
    const marks = createWasteMarks(records)
    const measured: unknown[] = []
    const wire = { ...agent, seen: [] }
    marks.marked(wire, call('c1'), () => undefined)
    marks.marked(wire, call('c2'), () => measured.push(marks.measured(reminder(1))))
    marks.marked(wire, call('c3'), () => measured.push(marks.measured(reminder(2))))
    expect(measured).toEqual([
      { ...reminder(1_000), wasteMs: 1_000 },
      { ...reminder(2_000), wasteMs: 2_000, wasteTokens: 0 },
    ])
  })
})
