// Reading an OpenAI Responses API response as its text arrives, in pieces, for what a later
// request continuing it needs: its id, as early as the text tells it (a request waiting for this
// response must know it is the one), and its tool calls and messages. The text is a JSON
// response object, or server-sent events (`stream: true`): `response.created` gives the id,
// `response.output_item.done` each finished item, `response.completed` the whole output.
import { jsonParse, setOf } from '../../intrinsics.ts'
import { isRecord } from '../../records.ts'
import { listOf } from '../content.ts'
import { createSseEvents } from '../sse-events.ts'

// Taken when the engine loads: a page that replaces JSON later cannot steer what we read.
const parseJson = jsonParse

/** What a response says that the requests continuing it need. */
export interface ReadResponse {
  readonly id: string
  /** Its tool calls and messages, in order. */
  readonly output: readonly unknown[]
}

export interface ResponseReader {
  /**
   * The next piece of the response's text; false once no more is needed: the whole response was
   * read (its `response.completed`), or its text, counted over the whole body, is too long.
   */
  push(text: string): boolean
  /** The response's id, once the text read so far tells it. */
  readonly id: string | undefined
  /**
   * What the whole text said; undefined when it was no response (an error, too long). `cut`: the
   * text stopped short (the page aborted once it had what it needed, say); only a response whose
   * end was read is then known whole.
   */
  end(cut?: boolean): ReadResponse | undefined
}

/** The output items a continued request's history needs. */
const KEPT = setOf<unknown>(['function_call', 'custom_tool_call', 'message'])

/** The events whose response holds the whole output. */
const FINAL = setOf<unknown>(['response.completed', 'response.incomplete'])

/** A JSON response's id, where the API writes it: as its first member. */
const LEADING_ID = /^\s*\{\s*"id"\s*:\s*"([^"\\]+)"/

/**
 * `maxChars`: past this much text the response is not remembered, and nothing more of it is read.
 * Counted over the whole body, JSON or events alike: a stream of many small events is bounded as
 * one large object is.
 */
export function createResponseReader(maxChars: number): ResponseReader {
  let mode: 'json' | 'events' | undefined
  let id: string | undefined
  /** JSON: the text so far; events: what is left before the first event starts. */
  let pending = ''
  /** The text pushed so far, in characters. */
  let chars = 0
  let tooLong = false
  let finished: unknown[] = []
  let final: readonly unknown[] | undefined

  function event(text: string): void {
    let value: unknown
    try {
      value = parseJson(text)
    } catch {
      // `[DONE]` and the like.
      return
    }
    if (!isRecord(value)) return
    const { response, item } = value
    if (isRecord(response) && typeof response.id === 'string') {
      id ??= response.id
      if (FINAL.has(value.type) && Array.isArray(response.output)) final = response.output
    }
    if (value.type === 'response.output_item.done' && isRecord(item)) finished.push(item)
  }

  const sse = createSseEvents(event)

  return {
    push(text) {
      if (tooLong || final !== undefined) return false
      chars += text.length
      if (chars > maxChars) {
        // Nothing of it is kept: what was read is let go.
        tooLong = true
        pending = ''
        sse.clear()
        finished = []
        return false
      }
      if (mode === undefined) {
        const start = (pending + text).trimStart()
        if (start === '') {
          pending += text
          return true
        }
        mode = start.startsWith('{') ? 'json' : 'events'
      }
      if (mode === 'json') {
        pending += text
        if (id === undefined) id = LEADING_ID.exec(pending)?.[1]
      } else {
        // The white space held before the first event is the stream's own.
        sse.push(pending + text)
        pending = ''
      }
      // A stream may stay open after its last event: the reading is over once the whole response is told.
      return final === undefined
    },

    get id() {
      return id
    },

    end(cut = false) {
      if (tooLong) return undefined
      if (mode === 'json') {
        let value: unknown
        try {
          value = parseJson(pending)
        } catch {
          return undefined
        }
        if (!isRecord(value) || typeof value.id !== 'string') return undefined
        return { id: value.id, output: kept(listOf(value.output)) }
      }
      if (id === undefined || (cut && final === undefined)) return undefined
      return { id, output: kept(final ?? finished) }
    },
  }
}

function kept(items: readonly unknown[]): unknown[] {
  return items.filter((item) => isRecord(item) && KEPT.has(item.type))
}
