// Watching the responses the page receives as the page reads them (page-response.ts): the
// response is adopted by a handler attached before the page gets the promise, so it runs before
// any of the page's and the page never holds the response unadopted. Everything is made by the
// frame's first request that may be an LLM request, with the built-ins captured then
// (body-natives.ts): a realm where that fails is left as it was, its responses unwatched.
import { callFunction } from '../../../../engine/intrinsics.ts'
import type { ShowAsNative } from '../native-look.ts'
import { captureBodyNatives } from './body-natives.ts'
import type { BodySink } from './body-watcher.ts'
import { createReadingQueue, type ReadingQueue } from './later-reading.ts'
import { createPageResponses, type PageResponses } from './page-response.ts'

/** A header of the response, as the browser has it (null when absent). */
export type ResponseHeader = (name: string) => string | null

export interface ResponseWatch {
  /** When `response` resolves, has the page read its body through the sink `open` returns (opened at the page's first read). */
  watch(response: Promise<Response>, open: () => BodySink): void
  /**
   * The same for a response whose headers `choose` accepts: it returns the sink's opener, or
   * undefined to leave the response the browser's alone (never adopted, never read by the guard).
   */
  watchWhen(response: Promise<Response>, choose: (header: ResponseHeader) => (() => BodySink) | undefined): void
  /** Has the guard read now all the page has read of every watched body (later-reading.ts): called before a request is analysed. */
  flush(): void
}

const ignore = (): void => undefined

/** Never throws: in a realm without what it needs, it watches nothing. */
export function createResponseWatch(target: typeof globalThis, showAsNative: ShowAsNative): ResponseWatch {
  const natives = captureBodyNatives(target)
  let responses: PageResponses | null = null
  let queue: ReadingQueue | null = null
  try {
    queue = natives?.channel ? createReadingQueue(natives.channel, natives) : null
    responses = natives && createPageResponses(natives, showAsNative, queue)
  } catch {
    responses = null
  }

  function adopt(response: Response, open: () => BodySink): void {
    try {
      responses!.adopt(response, open)
    } catch (error) {
      // The page reads the response as the browser gave it; the guard does not see it.
      try {
        open().fail(error)
      } catch {
        // Nowhere left to report to.
      }
    }
  }

  function chosen(response: Response, choose: (header: ResponseHeader) => (() => BodySink) | undefined): void {
    const { headersOf, headersGet } = natives!
    let open: (() => BodySink) | undefined
    try {
      const headers = callFunction(headersOf, response, [])
      open = choose((name) => callFunction(headersGet, headers, [name]) as string | null)
    } catch {
      // Headers that cannot be read (or a choice that failed): the response stays the browser's.
      return
    }
    if (open) adopt(response, open)
  }

  return {
    watch(response, open) {
      if (!natives || !responses) return
      // The page's own handlers, attached after this one, see the promise settle as before.
      callFunction(natives.then, response, [(value: Response) => adopt(value, open), ignore])
    },
    watchWhen(response, choose) {
      if (!natives || !responses) return
      callFunction(natives.then, response, [(value: Response) => chosen(value, choose), ignore])
    },
    flush() {
      queue?.flush()
    },
  }
}
