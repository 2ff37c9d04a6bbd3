// OpenAI Responses continued with `previous_response_id`: the request holds the outputs of the
// previous response's tool calls, and the calls themselves are on the provider's side. The
// responses the page receives are read (responses-reader.ts) and remembered (response-store.ts);
// a continued request's history is then its chain's requests and responses, followed by its own
// input, and the wire guard inserts into its body only the reminders that fall in that input. The
// provider keeps what earlier requests sent, reminders included, so a reminder is inserted once,
// in the request where it became due, and a request retried as it was gets the same insertion.
import type { GuardConfig } from '../../index.ts'
import { jsonStringify } from '../../intrinsics.ts'
import { parseRecord } from '../../records.ts'
import type { InsertionPoint, JsonObject, WireInspection } from '../types.ts'
import type { WireGuard } from '../wire-guard.ts'
import { createResponseReader } from './response-reader.ts'
import { createResponseStore, type ResponseStoreLimits } from './response-store.ts'

// Taken when the engine loads: a page that replaces JSON later cannot steer what we write.
const stringifyJson = jsonStringify

/** A Responses API request body, parsed once for its analysis and for its response's reading. */
export interface ResponsesRequest {
  readonly text: string
  readonly body: JsonObject
  /** The response it continues (`previous_response_id`). */
  readonly previous: string | undefined
  /** Whether the provider keeps its response (`store` is not false): only then can it be continued. */
  readonly stored: boolean
}

/** Reads the response to one request; what it read is remembered once it ends. */
export interface ResponseReading {
  /** The next piece of the response's text; false once no more is needed. */
  push(text: string): boolean
  /** The response's id, once its text tells it. */
  readonly id: string | undefined
  /** `cut`: the text stopped short; only a response read to its `response.completed` is remembered. */
  end(cut?: boolean): void
}

export interface StatefulResponses {
  /** The request `text` makes, if it is a Responses API body: an object with `input` or `previous_response_id`. */
  request(text: string): ResponsesRequest | undefined
  /** Whether the response `id` is remembered. */
  knows(id: string): boolean
  reading(request: ResponsesRequest): ResponseReading
  /**
   * The wire guard's inspection of the request: over its chain when it continues a response
   * (undefined when a response of the chain is not remembered: nothing is guessed), over its own
   * input otherwise. Throws as the wire guard does.
   */
  inspect(wire: WireGuard, request: ResponsesRequest, config: GuardConfig): WireInspection | undefined
}

const DEFAULT_LIMITS: ResponseStoreLimits = { maxResponses: 256, maxBytes: 16 * 1024 * 1024 }

/** A JavaScript string takes two bytes a character. */
const BYTES_PER_CHAR = 2

export function createStatefulResponses(limits: ResponseStoreLimits = DEFAULT_LIMITS): StatefulResponses {
  const store = createResponseStore(limits)

  return {
    request(text) {
      const body = parseRecord(text)
      if (!body) return undefined
      const previous = typeof body.previous_response_id === 'string' ? body.previous_response_id : undefined
      if (previous === undefined && body.input === undefined) return undefined
      return { text, body, previous, stored: body.store !== false }
    },

    knows: (id) => store.has(id),

    reading(request) {
      const reader = createResponseReader(limits.maxBytes / BYTES_PER_CHAR)
      return {
        push: (text) => reader.push(text),
        get id() {
          return reader.id
        },
        end(cut) {
          const read = reader.end(cut)
          if (!read) return
          const items = [...inputItems(request.body.input), ...read.output]
          // The request's text holds its input; its output is measured as it would be sent back.
          const bytes = BYTES_PER_CHAR * (request.text.length + stringifyJson(read.output).length)
          store.add({ id: read.id, previous: request.previous, items, bytes })
        },
      }
    },

    inspect(wire, request, config) {
      const { text, body, previous } = request
      if (previous === undefined) return wire.inspectPart({ history: body, text, body, place: (at) => at }, config)
      const chain = store.chain(previous)
      if (!chain) return undefined
      const earlier = chain.flatMap((response) => response.items)
      const history = { instructions: body.instructions, input: [...earlier, ...inputItems(body.input)] }
      const offset = earlier.length
      // A step's place follows its outputs; those of this request's input come after the offset.
      const place = (at: InsertionPoint): InsertionPoint | undefined => (at.index > offset ? { path: at.path, index: at.index - offset } : undefined)
      return wire.inspectPart({ history, text, body, place }, config)
    },
  }
}

/** A request's input as a list of items: a string is one user message. */
function inputItems(input: unknown): readonly unknown[] {
  if (typeof input === 'string') return [{ role: 'user', content: input }]
  return Array.isArray(input) ? input : []
}
