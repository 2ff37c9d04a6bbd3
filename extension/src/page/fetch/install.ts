// Zero-code mode (docs/zero-code.md, "How it works"): the page's fetch becomes a Proxy over the native one that guards the
// LLM requests of agents that never call our API. Everything but the JSON body of such a request
// goes out as the page sent it (method, headers, credentials, signal, the response stream); a
// request that is not one, or that we fail on, goes out untouched. The origin's setting decides
// whether an LLM request is analysed at all (off), and whether the result may replace its body
// (guard) or is only shown (observe). Installed at document_start with only the cheap checks
// (outgoing.ts); the analysis (analysis.ts) is asked for by the first request that may need it.
import { callFunction } from '../../../../engine/intrinsics.ts'
import type { ZeroCodeMode } from '../../protocol/zero-code-mode.ts'
import type { ResponsesTraffic } from '../responses/traffic.ts'
import type { AgentStreams } from '../streams/agent-streams.ts'
import { streamCandidates } from '../streams/recognise.ts'
import { followUsage } from '../responses/usage.ts'
import { createResponseWatch, type ResponseWatch } from '../responses/watch.ts'
import type { Analysed, Plan } from '../wire/analysis.ts'
import { createSafePlanner } from '../wire/safe-plan.ts'
import { createOutgoing, type Candidate } from './outgoing.ts'
import type { TransportHookOptions } from '../transport-hook.ts'

interface FetchInterceptorOptions extends TransportHookOptions {
  /** OpenAI Responses API requests, sent by way of their own analysis (responses/traffic.ts). */
  readonly responses?: () => ResponsesTraffic
  /** Agent event streams a server's loop sends (streams/agent-streams.ts): the responses of analysed requests are followed by them. */
  readonly streams?: () => AgentStreams
  /** The frame's watch over responses, when other hooks share it (made here at first need otherwise). */
  readonly watch?: () => ResponseWatch
}

type Fetch = typeof globalThis.fetch

/** Replaces the page's fetch; false when the page has none. */
export function installFetchInterceptor({ target, mode, analysis, showAsNative, responses, streams, watch: shared }: FetchInterceptorOptions): boolean {
  const nativeFetch = target.fetch
  if (typeof nativeFetch !== 'function') return false
  const outgoing = createOutgoing(target)
  // The members responses are read with are taken by the first request that may be an LLM request,
  // not at document_start: their first touch costs every frame (docs/security.md).
  let watch: ResponseWatch | undefined
  const watchNow = shared ?? ((): ResponseWatch => (watch ??= createResponseWatch(target, showAsNative)))
  const NativePromise = target.Promise
  const { then } = NativePromise.prototype

  /** The native fetch runs exactly once per call, outside every try: its own errors are the page's. */
  function dispatch(self: unknown, { args, after }: Plan): Promise<Response> {
    const response = callFunction(nativeFetch, self, args) as Promise<Response>
    after()
    return response
  }

  const { plan, failed } = createSafePlanner(analysis, 'fetch')

  /** Sends an analysed request: a Responses API request by way of `responses`, any other as planned. */
  function send(self: unknown, args: readonly unknown[], analysed: Analysed, withBody: (body: string) => readonly unknown[]): Promise<Response> {
    let sent: Promise<Response> | undefined
    try {
      // What the page read of earlier responses is the guard's before it decides on this request
      // (responses/later-reading.ts): a client-side tool's follow-up gets its reminder as before.
      watchNow().flush()
      sent = responses?.().send({ args, analysed, withBody, dispatch: (planned) => dispatch(self, planned), watch: watchNow() })
    } catch (error) {
      return dispatch(self, failed(args, error))
    }
    if (sent) return sent
    const response = dispatch(self, plan(args, analysed, withBody))
    try {
      const watch = watchNow()
      // One search of the body says which reading the response may need: an agent stream's, else usage's.
      const candidates = streamCandidates(analysed.text)
      if (candidates) streams?.().follow(response, analysed, candidates, watch)
      else followUsage(analysis(), response, analysed, watch)
    } catch {
      // The page gets its response as the browser gives it.
    }
    return response
  }

  /**
   * A Request object's body has to be read first, from a clone: the page's stays unread. What the
   * page gets follows fetch's promise with the `then` of document_start (an `async` function would
   * resolve with it, which calls the page's `Promise.prototype.then` of the moment).
   */
  function dispatchRequest(self: unknown, args: readonly unknown[], { request }: Extract<Candidate, { kind: 'request' }>, mode: Analysed['mode']): Promise<Response> {
    let reading: Promise<string>
    try {
      reading = outgoing.bodyText(request)
    } catch (error) {
      return dispatch(self, failed(args, error))
    }
    return new NativePromise<Response>((resolve, reject) => {
      const follow = (sending: () => Promise<Response>): void => {
        try {
          callFunction(then, sending(), [resolve, reject])
        } catch (error) {
          reject(error)
        }
      }
      callFunction(then, reading, [
        (text: string) => follow(() => send(self, args, { text, url: () => outgoing.urlOf(request), keepalive: false, mode, reach: 'fetch' }, (body) => [outgoing.requestWithBody(request, body)])),
        (error: unknown) => follow(() => dispatch(self, failed(args, error))),
      ])
    })
  }

  const intercepted = new Proxy(nativeFetch, {
    apply(_fetch, self: unknown, args: unknown[]): Promise<Response> {
      let candidate: Candidate | undefined
      let current: ZeroCodeMode
      try {
        current = mode()
        // Off: not even looked at.
        candidate = current === 'off' ? undefined : outgoing.candidate(args)
      } catch (error) {
        return dispatch(self, failed(args, error))
      }
      if (!candidate || current === 'off') return callFunction(nativeFetch, self, args) as Promise<Response>
      if (candidate.kind === 'request') return dispatchRequest(self, args, candidate, current)
      const { text, input, keepalive } = candidate
      return send(self, args, { text, url: () => outgoing.urlOf(input), keepalive, mode: current, reach: 'fetch' }, (body) => outgoing.withBody(args, body))
    },
  }) satisfies Fetch

  const descriptor = Object.getOwnPropertyDescriptor(target, 'fetch')
  if (descriptor && 'value' in descriptor) Object.defineProperty(target, 'fetch', { ...descriptor, value: intercepted })
  else target.fetch = intercepted
  showAsNative(intercepted, nativeFetch)
  return true
}
