// OpenAI Responses API requests (docs/zero-code.md, "OpenAI Responses continued by id"): a request continuing a stored
// response (`previous_response_id`) holds the outputs of tool calls that are in that response,
// on the provider's side. So the responses the page receives are read as the page reads them
// (watch.ts) and remembered (engine/wire/stateful/), and such a request is guarded over its whole
// chain: it waits for the response it continues if that one is still being read, then the
// reminders due in its own input are inserted, once. Any other Responses API request is guarded as its transport would guard it,
// its body parsed once for both. Part of the on-demand half.
import { createReadsInProgress, createStatefulResponses, LONGEST_WAIT_MS, type ResponsesRequest, responseSink, type StatefulResponses } from '../../../../engine/wire/index.ts'
import { errorText } from '../../../../engine/safe-reading.ts'
import type { Analysed, Plan, WireAnalysis } from '../wire/analysis.ts'
import type { BodySink } from './body-watcher.ts'
import { bothSinks } from './usage.ts'
import type { ResponseWatch } from './watch.ts'

/** One call of the page's, as its transport's hook has it. */
export interface ResponsesCall {
  readonly args: readonly unknown[]
  readonly analysed: Analysed
  readonly withBody: (body: string) => readonly unknown[]
  /** Sends the call as planned: the transport's native call, made exactly once. */
  readonly dispatch: (plan: Plan) => Promise<Response>
  readonly watch: ResponseWatch
}

export interface ResponsesTraffic {
  /**
   * Sends a Responses API request (a JSON body with `input` or `previous_response_id`, to a path
   * ending in `/responses`) and reads its response as the page does unless it asks for it not to
   * be stored; undefined for any other request, which the caller sends as usual. May throw before the
   * request is sent, never after.
   */
  send(call: ResponsesCall): Promise<Response> | undefined
}

interface ResponsesTrafficOptions {
  readonly analysis: WireAnalysis
  readonly fault: (message: string) => void
  /** The page's timer, captured at document_start: it bounds a request's wait for a stalled reading. */
  readonly later: (run: () => void, ms: number) => void
  readonly stateful?: StatefulResponses
}

const RESPONSES_PATH = /\/responses$/

/** Bodies up to this long are searched for a Responses API body's names before their URL is resolved. */
const SEARCHED_CHARS = 16_384

export function createResponsesTraffic({ analysis, fault, later, stateful = createStatefulResponses() }: ResponsesTrafficOptions): ResponsesTraffic {
  const reads = createReadsInProgress(stateful.knows, later)

  /** A fault, reported without ever throwing: the request is on its way by then. */
  function report(what: string, error?: unknown): void {
    try {
      fault(`responses-stateful: ${what}${error === undefined ? '' : `: ${errorText(error)}`}`)
    } catch {
      // Nowhere left to report to.
    }
  }

  // The page (or the user) stopping the response is no fault of ours.
  const sink = (request: ResponsesRequest): BodySink =>
    responseSink(stateful, reads, request, (error) => {
      if (!isAbort(error)) report('a response could not be read, requests continuing it go out unguarded', error)
    })

  function go({ args, analysed, withBody, dispatch, watch }: ResponsesCall, request: ResponsesRequest): Promise<Response> {
    const reached: Analysed = request.previous === undefined ? analysed : { ...analysed, reach: 'responses-stateful' }
    const response = dispatch(analysis.plan(args, reached, withBody, (wire, config) => stateful.inspect(wire, request, config)))
    // Read for waste too while an opt-in detector is on (docs/zero-code.md, "Waste"): one reading, both sinks.
    const usage = analysis.openResponse?.(request.text)
    try {
      if (request.stored) watch.watch(response, () => bothSinks(sink(request), usage?.()))
      else if (usage) watch.watch(response, usage)
    } catch (error) {
      report('a response cannot be read', error)
    }
    return response
  }

  return {
    send(call) {
      const { text } = call.analysed
      // The cheaper test first: resolving the URL costs a few microseconds, a search of a small body
      // for the names less; in a large body that search (for names opening with a quote, the most
      // common character of JSON) would cost far more than the URL.
      if (text.length <= SEARCHED_CHARS && !text.includes('"input"') && !text.includes('"previous_response_id"')) return undefined
      if (!RESPONSES_PATH.test(call.analysed.url().split(/[?#]/)[0]!)) return undefined
      const request = stateful.request(text)
      if (!request) return undefined
      const waiting = request.previous === undefined ? undefined : reads.settled(request.previous)
      if (!waiting) return go(call, request)
      return waiting.then((settled) => {
        // Nothing is guessed from a partial history: the request goes out as the page made it.
        if (!settled) report(`the response it continues was still being read after ${LONGEST_WAIT_MS} ms, a request continuing it went out unguarded`)
        return go(call, request)
      })
    },
  }
}

function isAbort(error: unknown): boolean {
  try {
    return typeof error === 'object' && error !== null && (error as { name?: unknown }).name === 'AbortError'
  } catch {
    return false
  }
}
