// The guard reads a watched body after the page has each chunk (later-reading.ts): the page's read
// resolves first, the guard hears the chunk in a later task, every step in the order the page's
// reading made it, and a flush hands it all over at once.
import { describe, expect, test } from 'vitest'
import { createNativeLook } from '../../../../../extension/src/page/native-look.ts'
import { TASK_BYTES } from '../../../../../extension/src/page/responses/later-reading.ts'
import { createResponseWatch } from '../../../../../extension/src/page/responses/watch.ts'
import { channelRealm } from './channel-realm.ts'
import { endlessBody, recordingSink } from './watched-response.ts'

const decoder = new TextDecoder()

/** A body of `pieces`, one chunk per pull, then its end. */
function piecesBody(pieces: readonly string[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder()
  let next = 0
  return new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        const piece = pieces[next++]
        if (piece === undefined) controller.close()
        else controller.enqueue(encoder.encode(piece))
      },
    },
    { highWaterMark: 0 },
  )
}

async function watchedInRealm(body: ReadableStream<Uint8Array>) {
  const realm = channelRealm()
  const watch = createResponseWatch(realm.target, createNativeLook(realm.target))
  const sink = recordingSink()
  const promise = Promise.resolve(new Response(body))
  watch.watch(promise, sink.open)
  return { page: await promise, sink, watch, delivered: realm.delivered, target: realm.target }
}

describe('a watched body read in a later task', () => {
  test("the page's read resolves before the guard hears the chunk; the guard hears it whole in the next task", async () => {
    const { stream } = endlessBody()
    const { page, sink, delivered } = await watchedInRealm(stream)
    const reader = page.body!.getReader()
    const handled = delivered()
    const first = await reader.read()
    expect(decoder.decode(first.value)).toBe('chunk 1\n')
    expect([sink.opened(), sink.told]).toEqual([0, []])
    await handled
    // The page's stream took the chunk's buffer: the guard read a copy.
    expect(sink.told).toEqual(['chunk 1\n'])
  })

  test('chunks, then the end, reach the guard in the order the page read them', async () => {
    const { page, sink, delivered } = await watchedInRealm(piecesBody(['one ', 'two ', 'three']))
    const handled = delivered()
    expect(await page.text()).toBe('one two three')
    await handled
    expect(sink.told).toEqual(['one ', 'two ', 'three', '', '<end>'])
  })

  test('a cut after chunks keeps its place', async () => {
    const { stream } = endlessBody()
    const { page, sink, delivered } = await watchedInRealm(stream)
    const reader = page.body!.getReader()
    const handled = delivered()
    await reader.read()
    await reader.read()
    await reader.cancel('stop')
    await handled
    expect(sink.told).toEqual(['chunk 1\n', 'chunk 2\n', '<cut>'])
  })

  test('flush hands the guard all the page has read, at once', async () => {
    const { page, sink, watch } = await watchedInRealm(piecesBody(['one ', 'two']))
    expect(await page.text()).toBe('one two')
    watch.flush()
    expect(sink.told).toEqual(['one ', 'two', '', '<end>'])
  })

  test('a chunk larger than a task reads is read a piece a task, so the page waits for a piece at most; a flush reads the rest at once', async () => {
    const pieces = ['a'.repeat(TASK_BYTES), 'b'.repeat(TASK_BYTES), 'c'.repeat(100)]
    const { page, sink, delivered, watch } = await watchedInRealm(piecesBody([pieces.join('')]))
    const reader = page.body!.getReader()
    const firstTask = delivered()
    expect((await reader.read()).value?.byteLength).toBe(2 * TASK_BYTES + 100)
    await firstTask
    expect(sink.told.join('')).toBe(pieces[0])
    await delivered()
    expect(sink.told.join('')).toBe(pieces.slice(0, 2).join(''))
    watch.flush()
    expect(sink.told.join('')).toBe(pieces.join(''))
  })

  test('a page that replaces MessageChannel, its ports, Uint8Array or its `set` once the watch is made neither sees nor steers the reading', async () => {
    const { page, sink, delivered, target } = await watchedInRealm(piecesBody(['one ', 'two']))
    const reached: string[] = []
    const spy = (name: string) =>
      function replaced() {
        reached.push(name)
        throw new Error(name)
      }
    const port = target.MessagePort.prototype
    port.postMessage = spy('postMessage')
    Object.defineProperty(port, 'onmessage', { set: spy('onmessage'), configurable: true })
    for (const name of ['port1', 'port2']) Object.defineProperty(target.MessageChannel.prototype, name, { get: spy(name), configurable: true })
    target.MessageChannel = spy('MessageChannel') as unknown as typeof MessageChannel
    // The copies are written with the typed arrays' `set` as it was.
    Object.getPrototypeOf(target.Uint8Array.prototype).set = spy('set')
    target.Uint8Array = spy('Uint8Array') as unknown as typeof Uint8Array
    const handled = delivered()
    expect(await page.text()).toBe('one two')
    await handled
    expect(sink.told).toEqual(['one ', 'two', '', '<end>'])
    expect(reached).toEqual([])
  })
})
