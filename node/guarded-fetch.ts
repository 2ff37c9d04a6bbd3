// The registered process's fetch (docs/node.md, "How it works"): a Proxy over the native one that
// guards the LLM requests of agents that never call the guard, as the page script's fetch hook does
// (docs/zero-code.md, "How it works"). Everything but the JSON body of such a request goes out as
// the app sent it (the same `this`, method, headers, signal, the response as undici gives it); a
// request that is not one, or that the guard fails on, goes out untouched. The native fetch runs
// exactly once per call, outside every try: its own errors are the app's.
import type { GuardConfig } from '../engine/index.ts'
import type { GuardEvents } from './guard-events.ts'
import { bodyText, type Candidate, candidateOf, requestWithBody, urlOf, withBody } from './request-body.ts'
import { createResponsesTraffic } from './responses-traffic.ts'
import { createWireAnalysis, type Plan } from './wire-analysis.ts'

export interface GuardedFetchOptions {
  readonly native: typeof fetch
  /** Observe: analysed and reported, sent as the app made it. */
  readonly observe: boolean
  /** The config in force, read on every request. */
  readonly config: () => GuardConfig
  readonly events: GuardEvents
}

export function createGuardedFetch({ native, observe, config, events }: GuardedFetchOptions): typeof fetch {
  const analysis = createWireAnalysis({ observe, config, events })
  const responses = createResponsesTraffic(analysis)

  function dispatch(self: unknown, { args, after }: Plan): Promise<Response> {
    const response = Reflect.apply(native, self, args) as Promise<Response>
    after()
    return response
  }

  /** Sends an analysed request: a Responses API request by way of `responses`, any other as planned. */
  function send(self: unknown, args: readonly unknown[], text: string, url: string, withText: (body: string) => readonly unknown[]): Promise<Response> {
    let sent: Promise<Response> | undefined
    try {
      sent = responses.send({ args, text, url, withBody: withText, dispatch: (plan) => dispatch(self, plan) })
    } catch (error) {
      return dispatch(self, analysis.failed(args, error))
    }
    return sent ?? dispatch(self, analysis.plan(args, text, url, withText))
  }

  /** A Request object's body is read first, from a clone: the app's stays unread. */
  async function sendRequest(self: unknown, args: readonly unknown[], request: Request): Promise<Response> {
    let text: string
    try {
      text = await bodyText(request)
    } catch (error) {
      return dispatch(self, analysis.failed(args, error))
    }
    return send(self, args, text, request.url, (body) => [requestWithBody(request, body)])
  }

  return new Proxy(native, {
    apply(target, self: unknown, args: unknown[]): Promise<Response> {
      let candidate: Candidate | undefined
      try {
        candidate = candidateOf(args)
      } catch (error) {
        return dispatch(self, analysis.failed(args, error))
      }
      if (candidate === undefined) return Reflect.apply(target, self, args) as Promise<Response>
      if (candidate.kind === 'request') return sendRequest(self, args, candidate.request)
      let url: string
      try {
        url = urlOf(args[0])
      } catch (error) {
        return dispatch(self, analysis.failed(args, error))
      }
      return send(self, args, candidate.text, url, (body) => withBody(args, body))
    },
  })
}
