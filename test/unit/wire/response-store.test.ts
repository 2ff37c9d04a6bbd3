// OpenAI Responses continued by id: the bounded store of the responses read.
import { describe, expect, test } from 'vitest'
import { createResponseStore, type StoredResponse } from '../../../engine/wire/stateful/response-store.ts'

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
