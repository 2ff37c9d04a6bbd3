// A watched response: the page keeps the Response the native fetch gave; its body reaches the guard
// chunk by chunk as the page reads it, and no further; a cancel reaches the original body.
import vm from 'node:vm'
import { describe, expect, test } from 'vitest'
import { BROWSERS, MEMBERS, recordingSink, endlessBody, watched } from './watched-response.ts'
import { ticks } from '../../../support/ticks.ts'

describe('a watched response', () => {
  test('is the very Response the browser gave; each chunk reaches the guard as the page reads it, and nothing past it', async () => {
    const { stream, state } = endlessBody()
    const original = new Response(stream, { status: 201, headers: { 'content-type': 'text/event-stream' } })
    const { page, sink } = await watched(original)
    expect(page).toBe(original)
    expect(page.status).toBe(201)
    const reader = page.body!.getReader()
    for (const n of [1, 2]) {
      expect(new TextDecoder().decode((await reader.read()).value)).toBe(`chunk ${n}\n`)
      await ticks()
      expect([state.pulls, sink.told.at(-1)]).toEqual([n, `chunk ${n}\n`])
    }
    expect(sink.told).toEqual(['chunk 1\n', 'chunk 2\n'])
  })

  test('a page that cancels cancels the original body, with its reason; the guard is told the text stopped short', async () => {
    const { stream, state } = endlessBody()
    const { page, sink } = await watched(new Response(stream))
    const reader = page.body!.getReader()
    await reader.read()
    await reader.cancel('stop')
    expect(state.cancelled).toEqual(['stop'])
    expect(sink.told).toEqual(['chunk 1\n', '<cut>'])
    // Cancelled before a byte was read: the original is cancelled all the same, and never watched.
    const unread = endlessBody()
    const second = await watched(new Response(unread.stream))
    await second.page.body!.cancel('never mind')
    expect(unread.state).toEqual({ pulls: 0, cancelled: ['never mind'] })
    expect(second.sink.opened()).toBe(0)
  })

  test('a body the page never reads is never read, nor watched', async () => {
    const unread = endlessBody()
    const { sink } = await watched(new Response(unread.stream))
    // Another response read to its end in the meantime: the first would have been read by now.
    const other = await watched(new Response('{"id":"resp_1"}'))
    expect(await other.page.text()).toBe('{"id":"resp_1"}')
    expect(other.sink.told).toEqual(['{"id":"resp_1"}', '', '<end>'])
    expect(unread.state.pulls).toBe(0)
    expect(sink.opened()).toBe(0)
  })

  test("text(), json(), arrayBuffer(), bytes() and blob() answer as the browser's, from what passes through", async () => {
    const text = '{"id":"resp_é","output":[]}'
    const make = () => new Response(text, { headers: { 'content-type': 'application/json; charset=utf-8' } })
    const reads = {
      text: (r: Response) => r.text(),
      json: (r: Response) => r.json(),
      arrayBuffer: async (r: Response) => [...new Uint8Array(await r.arrayBuffer())],
      bytes: async (r: Response) => [...(await r.bytes())],
      blob: async (r: Response) => {
        const blob = await r.blob()
        return [blob.type, await blob.text()]
      },
    }
    for (const [name, read] of Object.entries(reads)) {
      const { page, sink } = await watched(make())
      expect([name, await read(page)]).toEqual([name, await read(make())])
      expect(sink.told.join('')).toBe(`${text}<end>`)
      // A second read is refused as the browser refuses it.
      const native = make()
      await read(native)
      const refusal = await read(native).catch((error: Error) => [error.constructor.name, error.message])
      expect(await read(page).catch((error: Error) => [error.constructor.name, error.message])).toEqual(refusal)
    }
  })

  test("a BYOB reader reads into the page's own buffers", async () => {
    const text = 'event: response.created\ndata: {"type":"response.created"}\n\n'
    const { page, sink } = await watched(new Response(text))
    const reader = page.body!.getReader({ mode: 'byob' })
    const bytes: number[] = []
    for (;;) {
      const { done, value } = await reader.read(new Uint8Array(7))
      if (done) break
      expect(value.byteLength).toBeLessThanOrEqual(7)
      bytes.push(...value)
    }
    expect(new TextDecoder().decode(new Uint8Array(bytes))).toBe(text)
    expect(sink.told.join('')).toBe(`${text}<end>`)
  })

  test("bodyUsed and clone(): each copy is the browser's and read through the guard; a used body is not cloned, as the browser refuses it", async () => {
    const { page, sink } = await watched(new Response('abc', { status: 202, statusText: 'Accepted' }))
    expect(page.bodyUsed).toBe(false)
    const copy = page.clone()
    expect([copy instanceof Response, copy.status, copy.statusText]).toEqual([true, 202, 'Accepted'])
    expect([await page.text(), await copy.text()]).toEqual(['abc', 'abc'])
    expect(page.bodyUsed).toBe(true)
    expect(sink.opened()).toBe(2)
    expect(sink.told).toEqual(['abc', '', '<end>', 'abc', '', '<end>'])
    const native = new Response('abc')
    await native.text()
    const refusal = (fn: () => unknown) => {
      try {
        fn()
        return 'cloned'
      } catch (error) {
        return [(error as Error).constructor.name, (error as Error).message]
      }
    }
    expect(refusal(() => page.clone())).toEqual(refusal(() => native.clone()))
    // The body the page held before cloning, afterwards: as the browser leaves it.
    const held = await watched(new Response('abc'))
    const heldBody = held.page.body!
    held.page.clone()
    const nativeResponse = new Response('abc')
    const nativeBody = nativeResponse.body!
    nativeResponse.clone()
    expect([heldBody === held.page.body, heldBody.locked, held.page.body!.locked]).toEqual([nativeBody === nativeResponse.body, nativeBody.locked, nativeResponse.body!.locked])
    expect(await held.page.text()).toBe('abc')
    // Used the moment the page asks for a chunk, as the browser's is.
    const asked = await watched(new Response('abc'))
    void asked.page.body!.getReader().read()
    const askedNative = new Response('abc')
    void askedNative.body!.getReader().read()
    expect(asked.page.bodyUsed).toBe(askedNative.bodyUsed)
    // A body only locked is refused too.
    const locked = await watched(new Response('abc'))
    locked.page.body!.getReader()
    const lockedNative = new Response('abc')
    lockedNative.body!.getReader()
    expect(refusal(() => locked.page.clone())).toEqual(refusal(() => lockedNative.clone()))
  })

  test("its own members are not enumerable and print as the browser's; Response.prototype is left as it was", async () => {
    const { page, sink, target } = await watched(new Response('abc'))
    const native = new Response('abc')
    expect(Object.keys(page)).toEqual(Object.keys(native))
    expect(JSON.stringify(page)).toBe(JSON.stringify(native))
    expect(new Set(Reflect.ownKeys(page))).toEqual(new Set([...Reflect.ownKeys(native), ...MEMBERS]))
    expect(Object.getOwnPropertyDescriptors(Response.prototype)).toEqual(BROWSERS)
    const print = target.Function.prototype.toString
    for (const key of MEMBERS) {
      const own = Object.getOwnPropertyDescriptor(page, key)!
      const field = own.get ? 'get' : 'value'
      expect([key, print.call(own[field])]).toEqual([key, print.call(BROWSERS[key]![field])])
      expect([key, own[field]]).not.toEqual([key, BROWSERS[key]![field]])
    }
    expect(await page.text()).toBe('abc')
    expect(sink.told).toEqual(['abc', '', '<end>'])
  })

  test("another response of the page is the browser's alone: its members are the prototype's, its errors thrown by them", async () => {
    await watched(new Response('abc'))
    const other = new Response('abc')
    await other.text()
    expect(Reflect.ownKeys(other)).toEqual(Reflect.ownKeys(new Response('abc')))
    expect(Object.getOwnPropertyDescriptors(Response.prototype)).toEqual(BROWSERS)
    const error = await other.text().catch((e: Error) => e)
    expect(error).toBeInstanceOf(TypeError)
    expect(String((error as Error).stack)).not.toMatch(/page-response/)
  })

  test('a sink that wants no more is told no more, and the page reads on', async () => {
    const { stream } = endlessBody()
    const sink = recordingSink(1)
    const { page } = await watched(new Response(stream), sink)
    const reader = page.body!.getReader()
    for (let i = 0; i < 3; i++) await reader.read()
    expect(sink.told).toEqual(['chunk 1\n', '<end>'])
    expect(new TextDecoder().decode((await reader.read()).value)).toBe('chunk 4\n')
  })

  test('a sink that throws is told, and nothing reaches the page', async () => {
    const sink = recordingSink(Infinity, true)
    const { page } = await watched(new Response('abc'), sink)
    expect(await page.text()).toBe('abc')
    expect(sink.told).toEqual(['<fail Error: broken sink>'])
  })

  test('a body that fails: the page gets its error, the guard is told', async () => {
    let fail!: (error: unknown) => void
    const stream = new ReadableStream<Uint8Array>({ start: (controller) => void (fail = (error) => controller.error(error)) })
    const { page, sink } = await watched(new Response(stream))
    const read = page.text()
    const error = new TypeError('network error')
    fail(error)
    await expect(read).rejects.toBe(error)
    expect(sink.told).toEqual(['<fail TypeError: network error>'])
  })

  test('a response without a body is not watched; a realm without streams is left as it was', async () => {
    const { page, sink } = await watched(new Response(null, { status: 204 }))
    expect([page.body, await page.text(), page.bodyUsed]).toEqual([null, '', false])
    expect(Reflect.ownKeys(page)).toEqual(Reflect.ownKeys(new Response(null, { status: 204 })))
    expect(sink.opened()).toBe(0)
    const bare = vm.runInContext('globalThis', vm.createContext({ Response })) as typeof globalThis
    const plain = await watched(new Response('abc'), recordingSink(), bare)
    expect(Reflect.ownKeys(plain.page)).toEqual(Reflect.ownKeys(new Response('abc')))
    expect([await plain.page.text(), plain.sink.opened()]).toEqual(['abc', 0])
  })
})
