// A response's body, read by the guard as the app reads it (docs/zero-code.md, "OpenAI Responses
// continued by id"): the app gets a stream over the original body that pulls one chunk when the
// app asks for one (never ahead), and each chunk's text is shown to a sink on its way. Nothing the
// sink does (throw, say) reaches the app's reading; once the sink wants no more, it is left alone.

export interface BodySink {
  /** The next piece of the text; false when no more is needed. */
  chunk(text: string): boolean
  /** The text was read to its end. */
  end(): void
  /** The app stopped reading before the end (it cancelled the body). */
  cut(): void
  /** The body failed, or the sink threw. */
  fail(error: unknown): void
}

interface Watcher {
  chunk(bytes: Uint8Array): void
  end(): void
  cut(): void
  fail(error: unknown): void
}

function watch(sink: BodySink): Watcher {
  const decoder = new TextDecoder()
  let watching = true
  const guarded = (step: () => void): void => {
    if (!watching) return
    try {
      step()
    } catch (error) {
      watching = false
      try {
        sink.fail(error)
      } catch {
        // Nowhere left to report to.
      }
    }
  }
  const stop = (last: () => void) =>
    guarded(() => {
      watching = false
      last()
    })
  return {
    chunk: (bytes) =>
      guarded(() => {
        if (!sink.chunk(decoder.decode(bytes, { stream: true }))) stop(() => sink.end())
      }),
    end: () =>
      stop(() => {
        sink.chunk(decoder.decode())
        sink.end()
      }),
    cut: () => stop(() => sink.cut()),
    fail: (error) => stop(() => sink.fail(error)),
  }
}

/**
 * A stream for the app over the body `original()` gives (asked for at the app's first read, so a
 * clone taken before reads the body the clone left); `open` is called then too: a body never read
 * is never watched.
 */
export function passThrough(original: () => ReadableStream<Uint8Array>, open: () => BodySink): ReadableStream<Uint8Array> {
  let reader: ReadableStreamDefaultReader<Uint8Array> | undefined
  let watcher: Watcher | undefined
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (reader === undefined) {
          reader = original().getReader()
          watcher = watch(open())
        }
        let result: ReadableStreamReadResult<Uint8Array>
        try {
          result = await reader.read()
        } catch (error) {
          watcher!.fail(error)
          throw error
        }
        if (result.done) {
          watcher!.end()
          controller.close()
          return
        }
        watcher!.chunk(result.value)
        controller.enqueue(result.value)
      },
      cancel(reason) {
        watcher?.cut()
        return reader === undefined ? original().cancel(reason) : reader.cancel(reason)
      },
    },
    // Pulled only when the app reads: the guard never reads ahead of it.
    { highWaterMark: 0 },
  )
}
