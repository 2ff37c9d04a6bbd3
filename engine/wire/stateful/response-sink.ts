// One Responses API response read as its caller reads it, into the stored responses: the text goes
// to the response's reading, the reading is marked as in progress until the text ends, stops short
// or fails, and a request continuing the response waits for it only that long
// (reads-in-progress.ts). The page script and the Node entry read responses through this one sink.
import type { ReadsInProgress } from './reads-in-progress.ts'
import type { ResponsesRequest, StatefulResponses } from './responses.ts'

/** What is done with the response's text as the caller reads it. None of these throws but `failed`'s own. */
export interface ResponseSink {
  /** The next piece of the text; false once no more is needed. */
  chunk(text: string): boolean
  /** The text was read to its end. */
  end(): void
  /** The caller stopped reading before the end. */
  cut(): void
  /** Reading the body failed: the reading is cut, then `failed` hears why. */
  fail(error: unknown): void
}

export function responseSink(stateful: StatefulResponses, reads: ReadsInProgress, request: ResponsesRequest, failed: (error: unknown) => void): ResponseSink {
  const reading = stateful.reading(request)
  const handle = reads.start()
  const cut = (): void => {
    try {
      // A stream stopped after `response.completed` still told the whole response.
      reading.end(true)
    } finally {
      handle.finish()
    }
  }
  return {
    chunk(text) {
      const more = reading.push(text)
      if (reading.id !== undefined) handle.identified(reading.id)
      return more
    },
    end() {
      reading.end()
      handle.finish()
    },
    cut,
    fail(error) {
      cut()
      failed(error)
    },
  }
}
