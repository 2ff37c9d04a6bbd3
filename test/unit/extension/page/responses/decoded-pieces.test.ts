// A large chunk reaches the guard decoded in pieces of at most MAX_DECODED_BYTES (body-watcher.ts):
// the same text, a character split between two pieces whole in the next, and a sink that wants no
// more is told nothing after the piece where it said so.
import { describe, expect, test } from 'vitest'
import { MAX_DECODED_BYTES } from '../../../../../extension/src/page/responses/body-watcher.ts'
import { recordingSink, watched } from './watched-response.ts'

const encoder = new TextEncoder()

/** One chunk of `bytes`, as a network hands over a large piece at once. */
function oneChunk(bytes: Uint8Array): Response {
  return new Response(
    new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes)
        controller.close()
      },
    }),
  )
}

/** Reads the page's body to its end; what it read. */
async function readAll(page: Response): Promise<string> {
  return new TextDecoder().decode(await page.arrayBuffer())
}

describe('a chunk larger than the most bytes decoded at once', () => {
  test('reaches the guard in pieces, whole: a character across two pieces is in the second', async () => {
    // `é` is two bytes: the first piece ends between them.
    const text = `${'a'.repeat(MAX_DECODED_BYTES - 1)}é${'b'.repeat(MAX_DECODED_BYTES)}c`
    const { page, sink } = await watched(oneChunk(encoder.encode(text)))
    expect(await readAll(page)).toBe(text)
    const pieces = sink.told.slice(0, -1)
    expect(sink.told.at(-1)).toBe('<end>')
    expect(pieces.join('')).toBe(text)
    expect(pieces.map((piece) => piece.length)).toEqual([MAX_DECODED_BYTES - 1, MAX_DECODED_BYTES, 2, 0])
  })

  test('a view on part of a larger buffer is decoded from its own bytes only', async () => {
    const text = `${'x'.repeat(2 * MAX_DECODED_BYTES)}ENDED`
    const buffer = encoder.encode(`HEAD${text}TAIL`).buffer
    const { page, sink } = await watched(oneChunk(new Uint8Array(buffer, 4, text.length)))
    expect(await readAll(page)).toBe(text)
    expect(sink.told.slice(0, -1).join('')).toBe(text)
    expect(sink.told.slice(0, -1).map((piece) => piece.length)).toEqual([MAX_DECODED_BYTES, MAX_DECODED_BYTES, 5, 0])
  })

  test('a sink that wants no more after its first piece hears nothing of the others, and is ended once', async () => {
    const text = 'z'.repeat(3 * MAX_DECODED_BYTES)
    const { page, sink } = await watched(oneChunk(encoder.encode(text)), recordingSink(1))
    expect(await readAll(page)).toBe(text)
    expect(sink.told).toEqual(['z'.repeat(MAX_DECODED_BYTES), '<end>'])
  })
})
