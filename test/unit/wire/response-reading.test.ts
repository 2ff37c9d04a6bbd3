// OpenAI Responses continued by id: the responses read from the page's tees (JSON or server-sent
// events).
import { describe, expect, test } from 'vitest'
import { createResponseReader } from '../../../engine/wire/stateful/response-reader.ts'
import { createStatefulResponses } from '../../../engine/wire/stateful/responses.ts'
import { call, message, reasoning, responseJson, responseEvents, first } from './support/responses-chain.ts'

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
