// Reading a copy of a response the page receives, never the page's own: a clone taken the moment
// the response promise resolves, by a handler attached before the page gets the promise, so the
// copy exists before the page can read a byte. The page's Response object, its reading, its timing
// and its bytes stay as they were. Built in the start-up half: `then`, the built-in a page replaces
// most (and the one the handler is attached with), is the page's at document_start, each call
// going through the `Reflect.apply` captured then. The stream and decoder interfaces are taken at
// the first response watched: the first touch of an interface costs every frame, agent or not.
import { callFunction } from '../../../../engine/intrinsics.ts'

export interface TeeSink {
  /** The next piece of the text; false when no more is needed (the copy is then cancelled). */
  chunk(text: string): boolean
  /** The copy was read to its end. */
  end(): void
  /** Reading the copy failed: the response's stream did, or the sink threw. */
  fail(error: unknown): void
}

export interface ResponseTee {
  /** When `response` resolves, reads a copy of its body into the sink `open` then returns. */
  watch(response: Promise<Response>, open: () => TeeSink): void
}

interface Natives {
  readonly then: typeof Promise.prototype.then
  readonly clone: typeof Response.prototype.clone
  readonly bodyOf: () => ReadableStream<Uint8Array> | null
  readonly getReader: typeof ReadableStream.prototype.getReader
  readonly read: typeof ReadableStreamDefaultReader.prototype.read
  readonly cancel: typeof ReadableStreamDefaultReader.prototype.cancel
  readonly Decoder: typeof TextDecoder
  readonly decode: typeof TextDecoder.prototype.decode
}

const STREAMING = { stream: true }
const ignore = (): void => undefined

const { getOwnPropertyDescriptor } = Object

/** Never throws: in a realm without what it needs, it reads nothing. */
export function createResponseTee(target: typeof globalThis): ResponseTee {
  let then: Natives['then'] | undefined
  try {
    then = target.Promise.prototype.then
  } catch {
    then = undefined
  }
  /** Null once looked for and missing. */
  let natives: Natives | null | undefined

  function capture(): Natives | null {
    try {
      const bodyOf = getOwnPropertyDescriptor(target.Response.prototype, 'body')?.get
      const reader = target.ReadableStreamDefaultReader.prototype
      if (!then || !bodyOf) return null
      return {
        then,
        clone: target.Response.prototype.clone,
        bodyOf,
        getReader: target.ReadableStream.prototype.getReader,
        read: reader.read,
        cancel: reader.cancel,
        Decoder: target.TextDecoder,
        decode: target.TextDecoder.prototype.decode,
      }
    } catch {
      return null
    }
  }

  async function copy({ then, clone, bodyOf, getReader, read, cancel, Decoder, decode }: Natives, response: Response, open: () => TeeSink): Promise<void> {
    let sink: TeeSink | undefined
    try {
      // Synchronously, in the handler that runs before any of the page's.
      const body = callFunction(bodyOf, callFunction(clone, response, []), []) as ReadableStream<Uint8Array> | null
      sink = open()
      const decoder = new Decoder()
      if (body) {
        const reader = callFunction(getReader, body, []) as ReadableStreamDefaultReader<Uint8Array>
        for (;;) {
          const { done, value } = await (callFunction(read, reader, []) as Promise<ReadableStreamReadResult<Uint8Array>>)
          if (done) break
          if (!sink.chunk(callFunction(decode, decoder, [value, STREAMING]) as string)) {
            // Only the copy is cancelled; the page's branch reads on.
            callFunction(then, callFunction(cancel, reader, []), [ignore, ignore])
            return sink.end()
          }
        }
      }
      sink.chunk(callFunction(decode, decoder, []) as string)
      sink.end()
    } catch (error) {
      try {
        sink?.fail(error)
      } catch {
        // Nowhere left to report to.
      }
    }
  }

  return {
    watch(response, open) {
      if (natives === undefined) natives = capture()
      if (!natives) return
      const found = natives
      // The page's own handlers, attached after this one, see the promise settle as before.
      callFunction(found.then, response, [(value: Response) => void copy(found, value, open), ignore])
    },
  }
}
