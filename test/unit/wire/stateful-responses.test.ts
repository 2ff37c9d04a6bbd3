// OpenAI Responses continued with previous_response_id, in the engine: the guard of a request over
// its chain, with the reminders inserted into its own input only, once.
import { describe, expect, test } from 'vitest'
import { RECOMMENDED_CONFIG } from '../../../engine/index.ts'
import { createWireGuard } from '../../../engine/wire/index.ts'
import { createStatefulResponses } from '../../../engine/wire/stateful/responses.ts'
import { occurrences, reminderTextOf } from '../../fixtures/wire/placements.ts'
import { GENTLE } from '../../fixtures/wire/reminders.ts'
import { SYSTEM, DETAILED, call, output, message, reasoning, page, first, next, loop, reminderPlacements } from './support/responses-chain.ts'

describe.each([false, true])('a loop continued by id (streamed: %s)', (stream) => {
  const { turns } = loop(6, stream)

  test('each reminder is inserted once, right after the output that made it due, in that request only', () => {
    turns.forEach((turn, n) => {
      expect(occurrences(turn.sent, GENTLE)).toBe(n === 3 ? 1 : 0)
      expect(occurrences(turn.sent, DETAILED)).toBe(n === 5 ? 1 : 0)
    })
    expect(reminderTextOf((JSON.parse(turns[3]!.sent) as { input: unknown[] }).input[1])).toBe(GENTLE)
    expect(reminderTextOf((JSON.parse(turns[5]!.sent) as { input: unknown[] }).input[1])).toBe(DETAILED)
    expect(reminderPlacements(turns)).toEqual([[], [], [], [['gentle', 'input[1]']], [], [['detailed', 'input[1]']], []])
  })

  test("the page's bytes are kept: the rewritten body is the page's with one item more", () => {
    const text = JSON.stringify(turns[3]!.body)
    const reminder = JSON.stringify({ role: 'user', content: [{ type: 'input_text', text: GENTLE }] })
    const at = text.indexOf('}]}') + 1
    expect(turns[3]!.sent).toBe(`${text.slice(0, at)},${reminder}${text.slice(at)}`)
    for (const n of [0, 1, 2, 4, 6]) expect(turns[n]!.sent).toBe(JSON.stringify(turns[n]!.body))
  })

  test('one wire agent, labelled by its instructions, its calls numbered across the chain', () => {
    const events = turns.flatMap((t) => t.events)
    expect(events.filter((e) => e.type === 'agent')).toEqual([{ type: 'agent', at: expect.any(Number), agentId: 1, format: 'openai-responses', label: SYSTEM }])
    expect(events.filter((e) => e.type === 'call').map((e) => e.type === 'call' && [e.seq, e.count])).toEqual([1, 2, 3, 4, 5, 6].map((n) => [n, n]))
    expect(events.filter((e) => e.type === 'request').map((e) => e.type === 'request' && [e.calls, e.remindersInserted])).toEqual([
      [1, 0],
      [2, 0],
      [3, 1],
      [4, 0],
      [5, 1],
      [6, 0],
    ])
  })
})

describe('requests that continue the same response again', () => {
  test('a retried request (same previous response, same input) gets the same insertion again', () => {
    const { p, turns } = loop(3)
    const again = p.send(turns[3]!.body)
    expect(again.sent).toBe(turns[3]!.sent)
    expect(occurrences(again.sent, GENTLE)).toBe(1)
  })

  test('forks: two branches from one response are each guarded over their own chain', () => {
    const p = page()
    p.send(first(), 'resp_0', [call(1)])
    p.send(next('resp_0', [output(1)]), 'resp_1', [call(2)])
    p.send(next('resp_1', [output(2)]), 'resp_2', [call(3)])
    // Branch a: the third call, due for the gentle reminder.
    const a = p.send(next('resp_2', [output(3)]), 'resp_3a', [call(4)])
    expect(occurrences(a.sent, GENTLE)).toBe(1)
    // Branch b continues resp_1 with another answer: two calls only, nothing due.
    const b = p.send(next('resp_1', [output(2, 'other')]), 'resp_2b', [call(3, '{"path":"b.txt"}')])
    expect(b.sent).toBe(JSON.stringify(b.body))
    const b2 = p.send(next('resp_2b', [output(3)]), 'resp_3b', [call(4)])
    expect(b2.sent).toBe(JSON.stringify(b2.body))
    // Back on branch a: the fourth call, and the gentle reminder stays where it went (not repeated).
    const a2 = p.send(next('resp_3a', [output(4)]), 'resp_4a', [call(5)])
    expect(a2.sent).toBe(JSON.stringify(a2.body))
    const a3 = p.send(next('resp_4a', [output(5)]))
    expect(occurrences(a3.sent, GENTLE)).toBe(0)
    expect(occurrences(a3.sent, DETAILED)).toBe(1)
  })

  test('the reminder goes after the outputs, before what the page put after them', () => {
    const p = page()
    p.send(first(), 'resp_0', [call(1)])
    p.send(next('resp_0', [output(1)]), 'resp_1', [message('reading'), reasoning, call(2)])
    p.send(next('resp_1', [output(2)]), 'resp_2', [call(3), { ...call(4), call_id: 'call_4b' }])
    const both = p.send(next('resp_2', [output(3), { ...output(4), call_id: 'call_4b' }, { role: 'user', content: 'and hurry' }]))
    const input = (JSON.parse(both.sent) as { input: unknown[] }).input
    expect(input).toHaveLength(4)
    expect(reminderTextOf(input[2])).toBe(GENTLE)
    expect(input[3]).toEqual({ role: 'user', content: 'and hurry' })
  })
})

describe('what is not guarded', () => {
  test('a chain whose first response is no longer remembered: nothing inserted, nothing reported', () => {
    const stateful = createStatefulResponses({ maxResponses: 2, maxBytes: 1 << 20 })
    const p = page(stateful)
    p.send(first(), 'resp_0', [call(1)])
    p.send(next('resp_0', [output(1)]), 'resp_1', [call(2)])
    p.send(next('resp_1', [output(2)]), 'resp_2', [call(3)])
    expect(stateful.knows('resp_0')).toBe(false)
    const turn = p.send(next('resp_2', [output(3)]))
    expect(turn.sent).toBe(JSON.stringify(turn.body))
    expect(turn.events).toEqual([])
  })

  test('a response never read: its continuation is not guessed at', () => {
    const turn = page().send(next('resp_unknown', [output(1)]))
    expect(turn.events).toEqual([])
  })

  test("a reminder already in the page's own input is not inserted again", () => {
    const { p } = loop(2)
    const own = { role: 'user', content: [{ type: 'input_text', text: GENTLE }] }
    const turn = p.send(next('resp_2', [output(3), own]))
    expect(occurrences(turn.sent, GENTLE)).toBe(1)
  })
})

describe('what a request is', () => {
  const stateful = createStatefulResponses()

  test('a JSON object with input or previous_response_id; whether its response is stored', () => {
    expect(stateful.request('{"input":"hi"}')).toMatchObject({ previous: undefined, stored: true })
    expect(stateful.request('{"previous_response_id":"r","input":[],"store":false}')).toMatchObject({ previous: 'r', stored: false })
    expect(stateful.request('{"model":"m"}')).toBeUndefined()
    expect(stateful.request('[1]')).toBeUndefined()
    expect(stateful.request('{nope')).toBeUndefined()
  })

  test('a request without previous_response_id is guarded over its own input, as the wire guard would', () => {
    const input: unknown[] = [{ role: 'user', content: 'go' }]
    for (let n = 1; n <= 3; n++) input.push(call(n), output(n))
    const text = JSON.stringify({ instructions: SYSTEM, input })
    const inspection = stateful.inspect(createWireGuard(), stateful.request(text)!, RECOMMENDED_CONFIG)
    expect(inspection?.body).toBe(createWireGuard().inspect(text, RECOMMENDED_CONFIG)?.body)
    expect(occurrences(inspection!.body!, GENTLE)).toBe(1)
  })

  test('a string input is one user message, in the chain too', () => {
    const p = page()
    p.send({ instructions: SYSTEM, input: 'make the tests pass' }, 'resp_0', [call(1)])
    p.send(next('resp_0', [output(1)]), 'resp_1', [call(2)])
    p.send(next('resp_1', [output(2)]), 'resp_2', [call(3)])
    const turn = p.send(next('resp_2', [output(3)]))
    expect(occurrences(turn.sent, GENTLE)).toBe(1)
    const after = p.send(next('resp_2', 'start over'))
    expect(after.sent).toBe(JSON.stringify(after.body))
  })

  test('a reading tells the id as soon as the text does; an error body is not remembered', () => {
    const request = stateful.request('{"input":"hi"}')!
    const reading = stateful.reading(request)
    expect(reading.push('{"id":"resp_e1",')).toBe(true)
    expect(reading.id).toBe('resp_e1')
    reading.end()
    expect(stateful.knows('resp_e1')).toBe(false)
  })

  test('a response whose request had no input list still chains', () => {
    const p = page()
    p.send({ instructions: SYSTEM, previous_response_id: 'nowhere' }, 'resp_x', [call(1)])
    expect(p.stateful.knows('resp_x')).toBe(true)
  })
})
