// Responses API loops continued by previous_response_id through the page's fetch.
import { describe, expect, test } from 'vitest'
import { createStatefulResponses } from '../../../../../engine/wire/stateful/responses.ts'
import { occurrences } from '../../../../fixtures/wire/placements.ts'
import { GENTLE } from '../../../../fixtures/wire/reminders.ts'
import { SYSTEM, call, first, next, json, page, post, loop } from './responses-page.ts'
import { ticks } from '../../../support/ticks.ts'

describe('a loop continued by id', () => {
  test('the reminder is inserted once, in the request where it became due; the page reads its own responses, untouched', async () => {
    const p = page()
    const texts = await loop(p)
    expect(p.sent.map((body) => occurrences(body, GENTLE))).toEqual([0, 0, 0, 1])
    expect(JSON.parse(p.sent[3]!).input[1]).toEqual({ role: 'user', content: [{ type: 'input_text', text: GENTLE }] })
    expect(p.sent.slice(0, 3)).toEqual([first, next('resp_0', 1), next('resp_1', 2)].map((b) => JSON.stringify(b)))
    expect(texts).toEqual([0, 1, 2, 3].map((n) => json(`resp_${n}`, [call(n + 1)])))
    expect(p.faults).toEqual([])
  })

  test('the agent is shown as reached by responses-stateful, its reminder with its place in this request', async () => {
    const p = page()
    await loop(p)
    await ticks()
    expect(p.events.filter((e) => e.type === 'agent')).toEqual([
      { type: 'agent', at: expect.any(Number), agent: { id: 'wire:1', kind: 'wire', label: SYSTEM, format: 'openai-responses', reach: 'responses-stateful' } },
    ])
    expect(p.events.filter((e) => e.type === 'reminder')).toMatchObject([{ level: 'gentle', placement: 'input[1]' }])
  })

  test('observe: analysed and shown, never changed', async () => {
    const p = page()
    p.mode = 'observe'
    await loop(p)
    await ticks()
    expect(p.sent.map((body) => occurrences(body, GENTLE))).toEqual([0, 0, 0, 0])
    expect(p.events.filter((e) => e.type === 'reminder')).toMatchObject([{ withheld: 'observe', placement: 'input[1]' }])
  })

  test('off: not looked at, its responses not read; a continuation of them is not guessed at once guarded again', async () => {
    const stateful = createStatefulResponses()
    const p = page(stateful)
    p.mode = 'off'
    await loop(p)
    expect(stateful.knows('resp_0')).toBe(false)
    p.mode = 'guard'
    p.answer(json('resp_4', []))
    await post(p, next('resp_3', 4))
    expect(p.sent.map((body) => occurrences(body, GENTLE))).toEqual([0, 0, 0, 0, 0])
    expect(p.events).toEqual([])
  })

  test('store: false: the response is not read (the provider will not keep it), and no continuation of it is guessed at', async () => {
    const p = page()
    await loop(p, { store: false })
    expect(p.sent.map((body) => occurrences(body, GENTLE))).toEqual([0, 0, 0, 0])
    expect(p.events).toEqual([])
  })

  test('a body like it sent elsewhere, or a JSON body of no Responses request, takes the usual way', async () => {
    const p = page()
    p.answer(json('resp_0', [call(1)]))
    await post(p, first, 'https://api.example/v1/other')
    p.answer(json('resp_1', [call(1)]))
    await post(p, { model: 'm' })
    p.answer(json('resp_2', [call(2)]))
    await post(p, next('resp_0', 1), 'https://api.example/v1/other')
    expect(p.faults).toEqual([])
    expect(p.events).toEqual([])
  })
})
