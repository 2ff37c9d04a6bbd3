// OpenAI Responses continued with previous_response_id, in the engine: the responses read from the
// page's tees (JSON or server-sent events), the bounded store of them, and the guard of a request
// over its chain, with the reminders inserted into its own input only, once.
import { describe, expect, test } from 'vitest'
import { RECOMMENDED_CONFIG } from '../../../engine/index.ts'
import { createWireGuard, type WireEvent, type WireGuard } from '../../../engine/wire/index.ts'
import { createResponseReader } from '../../../engine/wire/stateful/response-reader.ts'
import { createResponseStore, type StoredResponse } from '../../../engine/wire/stateful/response-store.ts'
import { createStatefulResponses, type StatefulResponses } from '../../../engine/wire/stateful/responses.ts'
import { occurrences, reminderTextOf } from '../../fixtures/wire/placements.ts'
import { detailed, GENTLE } from '../../fixtures/wire/reminders.ts'

const SYSTEM = 'You are a careful coding agent.'
const DETAILED = detailed('read_file', 5, '{"path":"a.txt"}')

const call = (n: number, args = '{"path":"a.txt"}') => ({ type: 'function_call', id: `fc_${n}`, call_id: `call_${n}`, name: 'read_file', arguments: args, status: 'completed' })
const output = (n: number, result = 'export const a = 1') => ({ type: 'function_call_output', call_id: `call_${n}`, output: result })
const message = (text: string) => ({ type: 'message', id: 'msg_1', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text, annotations: [] }] })
const reasoning = { type: 'reasoning', id: 'rs_1', summary: [] }

/** A response as the API sends it without streaming. */
const responseJson = (id: string, out: readonly unknown[]) => JSON.stringify({ id, object: 'response', status: 'completed', output: out })

/** The same response streamed: created, each item done, completed. */
function responseEvents(id: string, out: readonly unknown[], { completed = true, crlf = false } = {}): string {
  const end = crlf ? '\r\n' : '\n'
  const event = (type: string, fields: object) => `event: ${type}${end}data: ${JSON.stringify({ type, ...fields })}${end}${end}`
  return [
    event('response.created', { response: { id, status: 'in_progress', output: [] } }),
    ...out.map((item, i) => event('response.output_item.done', { output_index: i, item })),
    completed ? event('response.completed', { response: { id, status: 'completed', output: out } }) : '',
  ].join('')
}

type Body = Record<string, unknown>

interface Turn {
  readonly body: Body
  /** The body as sent: the page's, or the rewritten one. */
  readonly sent: string
  readonly events: readonly WireEvent[]
}

/** A page driving the API: inspects each request, then reads the response the provider gives. */
function page(stateful: StatefulResponses = createStatefulResponses(), wire: WireGuard = createWireGuard()) {
  return {
    stateful,
    wire,
    send(body: Body, responseId?: string, out: readonly unknown[] = [], stream = false): Turn {
      const text = JSON.stringify(body)
      const request = stateful.request(text)!
      const inspection = stateful.inspect(wire, request, RECOMMENDED_CONFIG)
      if (responseId !== undefined) {
        const reading = stateful.reading(request)
        const whole = stream ? responseEvents(responseId, out) : responseJson(responseId, out)
        // In pieces, as a network would hand them over.
        for (let i = 0; i < whole.length; i += 50) reading.push(whole.slice(i, i + 50))
        reading.end()
      }
      return { body, sent: inspection?.body ?? text, events: inspection?.events ?? [] }
    },
  }
}

const first = (): Body => ({ model: 'm', instructions: SYSTEM, input: [{ role: 'user', content: 'make the tests pass' }], tools: [] })
const next = (previous: string, input: readonly unknown[] | string): Body => ({ model: 'm', instructions: SYSTEM, previous_response_id: previous, input })

/** An SDK loop on one call: request n answers call n of response n - 1. */
function loop(steps: number, stream = false) {
  const p = page()
  const turns = [p.send(first(), 'resp_0', [call(1)], stream)]
  for (let n = 1; n <= steps; n++) turns.push(p.send(next(`resp_${n - 1}`, [output(n)]), `resp_${n}`, n < steps ? [call(n + 1)] : [message('done')], stream))
  return { p, turns }
}

const reminderPlacements = (turns: readonly Turn[]) =>
  turns.map((turn) => turn.events.flatMap((e) => (e.type === 'reminder' ? [[e.level, e.placement]] : [])))

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

  test('the page\'s bytes are kept: the rewritten body is the page\'s with one item more', () => {
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
      [1, 0], [2, 0], [3, 1], [4, 0], [5, 1], [6, 0],
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

  test('a reminder already in the page\'s own input is not inserted again', () => {
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

describe('reading a response', () => {
  const read = (pieces: readonly string[], max = 1 << 20) => {
    const reader = createResponseReader(max)
    const ids = pieces.map((piece) => (reader.push(piece), reader.id))
    return { ids, read: reader.end() }
  }

  test('JSON: the id from the first piece that holds it; the kept items at the end', () => {
    const text = `  ${responseJson('resp_1', [reasoning, message('hi'), call(1), { type: 'web_search_call', id: 'ws' }])}`
    const { ids, read: result } = read([' ', text.slice(0, 12), text.slice(12, 30), text.slice(30)])
    expect(ids).toEqual([undefined, undefined, 'resp_1', 'resp_1'])
    expect(result).toEqual({ id: 'resp_1', output: [message('hi'), call(1)] })
  })

  test('JSON: an id that is not the first member is known at the end; no output is an empty one', () => {
    const { ids, read: result } = read(['{"object":"response","id":"resp_2"}'])
    expect(ids).toEqual([undefined])
    expect(result).toEqual({ id: 'resp_2', output: [] })
  })

  test('JSON that is no response, or no JSON at all, is not remembered', () => {
    expect(read(['{"error":{"message":"bad"}}']).read).toBeUndefined()
    expect(read(['{"id":"resp_1", cut']).read).toBeUndefined()
    expect(read(['[]']).read).toBeUndefined()
    expect(read([]).read).toBeUndefined()
  })

  test('events: the id from response.created, the output from response.completed', () => {
    const text = responseEvents('resp_3', [call(1), call(2)])
    const cut = text.indexOf('response.output_item.done')
    const { ids, read: result } = read([text.slice(0, cut), text.slice(cut)])
    expect(ids).toEqual(['resp_3', 'resp_3'])
    expect(result).toEqual({ id: 'resp_3', output: [call(1), call(2)] })
  })

  test('events: CRLF line ends, even split between pieces; comments, other fields and [DONE] are skipped', () => {
    const text = `: keep-alive\r\nretry: 10\r\nid\r\n${responseEvents('resp_4', [call(1)], { crlf: true })}data:[DONE]\r\n\r\n`
    const pieces = text.split('\r\n').flatMap((line) => [`${line}\r`, '\n'])
    const { read: result } = read(pieces)
    expect(result).toEqual({ id: 'resp_4', output: [call(1)] })
  })

  test('events: a stream without response.completed keeps the items it finished; an incomplete response its output', () => {
    expect(read([responseEvents('resp_5', [call(1)], { completed: false })]).read).toEqual({ id: 'resp_5', output: [call(1)] })
    const incomplete = `data: ${JSON.stringify({ type: 'response.incomplete', response: { id: 'resp_6', output: [message('half')] } })}\n\n`
    expect(read([incomplete]).read).toEqual({ id: 'resp_6', output: [message('half')] })
    const failed = `data: ${JSON.stringify({ type: 'response.failed', response: { id: 'resp_7', output: 'none' } })}\n\n`
    expect(read([failed]).read).toEqual({ id: 'resp_7', output: [] })
  })

  test('cut short: only a response whose completion was read is known', () => {
    const text = responseEvents('resp_c', [call(1)])
    const cutBefore = createResponseReader(1 << 20)
    cutBefore.push(text.slice(0, text.indexOf('event: response.completed')))
    expect(cutBefore.end(true)).toBeUndefined()
    const cutAfter = createResponseReader(1 << 20)
    cutAfter.push(text)
    expect(cutAfter.end(true)).toEqual({ id: 'resp_c', output: [call(1)] })
  })

  test('events: a data line split over two lines is one event; one without an id is no response', () => {
    const split = `data: {"type":"response.created",\ndata: "response":{"id":"resp_8"}}\n\n`
    expect(read([split]).read).toEqual({ id: 'resp_8', output: [] })
    expect(read(['data: 1\n\ndata: {"type":"error","response":{"id":3}}\n\n']).read).toBeUndefined()
  })

  test('events: once response.completed (or incomplete) is read it asks for no more, a stream left open is read whole', () => {
    for (const text of [responseEvents('resp_d', [call(1)]), `data: ${JSON.stringify({ type: 'response.incomplete', response: { id: 'resp_d', output: [call(1)] } })}\n\n`]) {
      const reader = createResponseReader(1 << 20)
      expect(reader.push(text)).toBe(false)
      expect(reader.push(': keep-alive\n\n')).toBe(false)
      expect(reader.end()).toEqual({ id: 'resp_d', output: [call(1)] })
    }
    const open = createResponseReader(1 << 20)
    expect(open.push(responseEvents('resp_e', [call(1)], { completed: false }))).toBe(true)
    expect(open.push(': keep-alive\n\ndata:[DONE]\n\n')).toBe(true)
  })

  test('too long to remember: it asks for no more, and nothing is remembered', () => {
    const reader = createResponseReader(40)
    expect(reader.push(responseJson('resp_9', [call(1)]))).toBe(false)
    expect(reader.push('more')).toBe(false)
    expect(reader.end()).toBeUndefined()
    const events = createResponseReader(40)
    expect(events.push('data: {"type":"response.created","response":{"id":"r"}}')).toBe(false)
  })

  test('a stream is counted over its whole body, not event by event: many small events add up to too long', () => {
    const text = responseEvents('resp_long', [call(1)], { completed: false })
    const delta = `data: ${JSON.stringify({ type: 'response.output_text.delta', delta: 'x' })}\n\n`
    // Room for the response and 9 deltas, each far under the cap alone.
    const reader = createResponseReader(text.length + 9 * delta.length)
    expect(reader.push(text)).toBe(true)
    for (let i = 0; i < 9; i++) expect(reader.push(delta)).toBe(true)
    expect(reader.push(delta)).toBe(false)
    expect(reader.push(`data: ${JSON.stringify({ type: 'response.completed', response: { id: 'resp_long', output: [call(1)] } })}\n\n`)).toBe(false)
    expect(reader.end()).toBeUndefined()
    expect(reader.end(true)).toBeUndefined()
    // The store's byte limit bounds a reading the same way: 9 deltas are remembered, 10 are not.
    const completed = `data: ${JSON.stringify({ type: 'response.completed', response: { id: 'resp_long', output: [call(1)] } })}\n\n`
    const remembered = (deltas: number) => {
      const stateful = createStatefulResponses({ maxResponses: 4, maxBytes: 2 * (text.length + 9 * delta.length + completed.length) })
      const reading = stateful.reading(stateful.request(JSON.stringify(first()))!)
      for (const piece of [text, ...Array<string>(deltas).fill(delta), completed]) reading.push(piece)
      reading.end()
      return stateful.knows('resp_long')
    }
    expect([remembered(9), remembered(10)]).toEqual([true, false])
  })
})

describe('the store', () => {
  const response = (id: string, previous?: string, bytes = 10): StoredResponse => ({ id, previous, items: [id], bytes })

  test('walks a chain back to its first response', () => {
    const store = createResponseStore({ maxResponses: 10, maxBytes: 1000 })
    store.add(response('a'))
    store.add(response('b', 'a'))
    store.add(response('c', 'b'))
    expect(store.chain('c')?.map((r) => r.id)).toEqual(['a', 'b', 'c'])
    expect(store.chain('x')).toBeUndefined()
  })

  test('forgets the least recently used first, by count and by bytes; a walked chain counts as used', () => {
    const store = createResponseStore({ maxResponses: 3, maxBytes: 35 })
    store.add(response('a'))
    store.add(response('b', 'a'))
    store.add(response('other'))
    store.chain('b')
    store.add(response('c', 'b'))
    expect(['a', 'b', 'c', 'other'].map(store.has)).toEqual([true, true, true, false])
    store.add(response('big', undefined, 20))
    expect(['a', 'b', 'c', 'big'].map(store.has)).toEqual([false, false, true, true])
    expect(store.chain('c')).toBeUndefined()
  })

  test('a response bigger than the whole store is not kept; the same id again replaces it', () => {
    const store = createResponseStore({ maxResponses: 3, maxBytes: 30 })
    store.add(response('a'))
    store.add(response('huge', undefined, 31))
    expect(store.has('huge')).toBe(false)
    store.add(response('a', undefined, 25))
    store.add(response('b'))
    // 25 + 10 is past 30: the replaced one, now the oldest, goes.
    expect([store.has('a'), store.has('b')]).toEqual([false, true])
  })

  test('a chain that loops back on itself is no chain', () => {
    const store = createResponseStore({ maxResponses: 3, maxBytes: 1000 })
    store.add(response('a', 'b'))
    store.add(response('b', 'a'))
    expect(store.chain('a')).toBeUndefined()
  })
})
