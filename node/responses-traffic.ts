// OpenAI Responses API requests (docs/zero-code.md, "OpenAI Responses continued by id"), as the
// page script handles them: a request continuing a stored response (`previous_response_id`) holds
// the outputs of tool calls that are in that response, on the provider's side. So the responses the
// app receives are read as the app reads them (response-tap.ts) and remembered
// (engine/wire/stateful/), and such a request is guarded over its whole chain: it waits for the
// response it continues if that one is still being read, then the reminders due in its own input
// are inserted, once. Any other Responses API request is guarded as any request, its body parsed
// once for both.
import { errorText } from '../engine/safe-reading.ts'
import { createReadsInProgress, createStatefulResponses, LONGEST_WAIT_MS, type ResponsesRequest, responseSink } from '../engine/wire/index.ts'
import type { BodySink } from './body-watch.ts'
import { tapResponse } from './response-tap.ts'
import type { Plan, WireAnalysis } from './wire-analysis.ts'

/** One call of the app's, as the registered fetch has it. */
export interface ResponsesCall {
  readonly args: readonly unknown[]
  readonly text: string
  readonly url: string
  readonly withBody: (body: string) => readonly unknown[]
  /** Sends the call as planned: the native fetch, called exactly once. */
  readonly dispatch: (plan: Plan) => Promise<Response>
}

export interface ResponsesTraffic {
  /** Sends a Responses API request and reads its response as the app does; undefined for any other request. */
  send(call: ResponsesCall): Promise<Response> | undefined
}

const RESPONSES_PATH = /\/responses$/

export function createResponsesTraffic(analysis: WireAnalysis): ResponsesTraffic {
  const stateful = createStatefulResponses()
  // The timer bounding a wait does not hold the process by itself; the waiting request does (send).
  const reads = createReadsInProgress(stateful.knows, (run, ms) => void setTimeout(run, ms).unref())

  const sink = (request: ResponsesRequest): BodySink =>
    responseSink(stateful, reads, request, (error) => {
      if (!(error instanceof Error && error.name === 'AbortError')) analysis.fault(`responses-stateful: a response could not be read, requests continuing it go out unguarded: ${errorText(error)}`)
    })

  function go({ args, text, url, withBody, dispatch }: ResponsesCall, request: ResponsesRequest): Promise<Response> {
    const response = dispatch(analysis.plan(args, text, url, withBody, (wire, config) => stateful.inspect(wire, request, config)))
    if (!request.stored) return response
    return response.then((value) => {
      try {
        tapResponse(value, () => sink(request))
      } catch (error) {
        analysis.fault(`responses-stateful: a response cannot be read: ${errorText(error)}`)
      }
      return value
    })
  }

  return {
    send(call) {
      const { text, url } = call
      // The URL first: in Node it is text at hand, cheaper to test than a search of a large body.
      if (!RESPONSES_PATH.test(url.split(/[?#]/)[0]!)) return undefined
      if (!text.includes('"input"') && !text.includes('"previous_response_id"')) return undefined
      const request = stateful.request(text)
      if (!request) return undefined
      const waiting = request.previous === undefined ? undefined : reads.settled(request.previous)
      if (!waiting) return go(call, request)
      // The bounding timer does not hold the process; the request waiting does, until it goes.
      const keepAlive = setTimeout(() => undefined, LONGEST_WAIT_MS + 1_000)
      return waiting.then((settled) => {
        clearTimeout(keepAlive)
        // Nothing is guessed from a partial history: the request goes out as the app made it.
        if (!settled) analysis.fault(`responses-stateful: the response it continues was still being read after ${LONGEST_WAIT_MS} ms, a request continuing it went out unguarded`)
        return go(call, request)
      })
    },
  }
}
