// The stream the page reads a watched response's body from: a byte stream that reads the original
// body only when the page reads, one read of the original for each read of the page's, and shows
// each chunk to the guard before handing it on. So the guard reads no faster and no further than
// the page does: a body the page never reads is never read (the browser holds the network back as
// it would without the extension), and a page that cancels cancels the original, which closes the
// connection. Nothing is read ahead (the stream's high-water mark is 0). A byte stream, as the
// browser's own bodies are: the page can read it with a BYOB reader. Every call goes through the
// built-ins body-natives.ts captured; `pull` and `cancel` return nothing, so
// the stream never looks up `then` on a promise of ours (a page's replaced `then` would run there).
import { callFunction, objectCreate } from '../../../../engine/intrinsics.ts'
import type { BodyNatives } from './body-natives.ts'

/** What is done with a body as the page reads it. None of these may throw. */
export interface Passage {
  /** The next chunk, before the page gets it. */
  chunk(bytes: Uint8Array): void
  /** The body ended; the page is told after this. */
  end(): void
  /** The page cancelled its reading. */
  cut(): void
  /** Reading the body failed; the page is told after this. */
  fail(error: unknown): void
}

type Controller = ReadableByteStreamController
type ReadResult = ReadableStreamReadResult<Uint8Array>

const ignore = (): void => undefined

/**
 * A stream for the page over the body `original()` gives (read only at the page's first read, so
 * that a clone taken before reads the body the clone left). `open` is called at the page's first
 * read too: a body never read is never watched.
 */
export function passThrough(natives: BodyNatives, original: () => ReadableStream<Uint8Array>, open: () => Passage): ReadableStream<Uint8Array> {
  const { then, getReader, streamCancel, read, readerCancel, enqueue, close, error, byobRequest, respond, byteLength } = natives
  let reader: ReadableStreamDefaultReader<Uint8Array> | undefined
  let passage: Passage | undefined
  /** The page's stream is closed, errored or cancelled: what the original still answers is no longer the page's. */
  let over = false

  function failed(controller: Controller, reason: unknown): void {
    if (over) return
    over = true
    passage!.fail(reason)
    try {
      callFunction(error, controller, [reason])
    } catch {
      // The page's stream is no longer readable: nothing to tell it.
    }
  }

  function ended(controller: Controller): void {
    over = true
    passage!.end()
    callFunction(close, controller, [])
    // A BYOB read still waiting is answered once the stream is closed, with no bytes.
    const request = callFunction(byobRequest, controller, []) as ReadableStreamBYOBRequest | null
    if (request !== null) callFunction(respond, request, [0])
  }

  function received(controller: Controller, result: ReadResult): void {
    if (over) return
    try {
      if (result.done) return void ended(controller)
      const bytes = result.value
      // A byte stream refuses an empty chunk; the page's read is still waiting for one.
      if ((callFunction(byteLength, bytes, []) as number) === 0) return void readOnce(controller)
      passage!.chunk(bytes)
      // Hands the chunk's buffer over to the page's stream (it is the page's from here on).
      callFunction(enqueue, controller, [bytes])
    } catch (reason) {
      failed(controller, reason)
      callFunction(then, callFunction(readerCancel, reader, [reason]), [ignore, ignore])
    }
  }

  function readOnce(controller: Controller): void {
    const next = callFunction(read, reader, []) as Promise<ReadResult>
    callFunction(then, next, [(result: ReadResult) => received(controller, result), (reason: unknown) => failed(controller, reason)])
  }

  const source = objectCreate(null) as UnderlyingByteSource
  source.type = 'bytes'
  source.pull = (controller: Controller): void => {
    if (over) return
    if (reader === undefined) {
      // Throws when the original cannot be read (the page read it by another way): the page's
      // stream then fails with the browser's own error.
      reader = callFunction(getReader, original(), []) as ReadableStreamDefaultReader<Uint8Array>
      passage = open()
    }
    readOnce(controller)
  }
  source.cancel = (reason: unknown): void => {
    if (over) return
    over = true
    passage?.cut()
    try {
      const cancelled = reader === undefined ? callFunction(streamCancel, original(), [reason]) : callFunction(readerCancel, reader, [reason])
      callFunction(then, cancelled, [ignore, ignore])
    } catch {
      // The original is gone or was read another way: nothing of ours holds it open.
    }
  }
  return new natives.NativeReadableStream(source)
}
