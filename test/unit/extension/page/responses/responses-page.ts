// A page realm for the Responses API tests through the page's fetch, in Node: a separate realm stands
// for the page, its native fetch answers with Responses the test makes (JSON or a stream it feeds by
// hand). The response the page gets is the one the native fetch gave, its body read by the guard as
// the page reads it; a request continuing a response waits for that response's reading, and only for it.
import vm from 'node:vm'
import { RECOMMENDED_CONFIG } from '../../../../../engine/index.ts'
import { installFetchInterceptor } from '../../../../../extension/src/page/fetch/install.ts'
import { createStatefulResponses } from '../../../../../engine/wire/stateful/responses.ts'
import { createNativeLook } from '../../../../../extension/src/page/native-look.ts'
import { createResponsesTraffic } from '../../../../../extension/src/page/responses/traffic.ts'
import { createWireAnalysis } from '../../../../../extension/src/page/wire/analysis.ts'
import type { PanelEvent } from '../../../../../extension/src/protocol/events.ts'
import type { ZeroCodeMode } from '../../../../../extension/src/protocol/zero-code-mode.ts'
import { STREAMS } from './page-streams.ts'

export const SYSTEM = 'You are a careful coding agent.'
const URL_ = 'https://api.example/v1/responses'
export const call = (n: number) => ({ type: 'function_call', id: `fc_${n}`, call_id: `call_${n}`, name: 'read_file', arguments: '{"path":"a.txt"}', status: 'completed' })
const output = (n: number) => ({ type: 'function_call_output', call_id: `call_${n}`, output: 'export const a = 1' })
export const first = { model: 'm', instructions: SYSTEM, input: [{ role: 'user', content: 'go' }] }
export const next = (previous: string, n: number, extra: object = {}) => ({ model: 'm', instructions: SYSTEM, previous_response_id: previous, input: [output(n)], ...extra })
export const json = (id: string, out: readonly unknown[]) => JSON.stringify({ id, object: 'response', status: 'completed', output: out })
export const sse = (id: string, out: readonly unknown[]) => [
  `event: response.created\ndata: ${JSON.stringify({ type: 'response.created', response: { id, output: [] } })}\n\n`,
  `event: response.completed\ndata: ${JSON.stringify({ type: 'response.completed', response: { id, output: out } })}\n\n`,
]

/** A response body the test feeds by hand. */
export function fedStream() {
  let controller!: ReadableStreamDefaultController<Uint8Array>
  const stream = new ReadableStream<Uint8Array>({ start: (c) => void (controller = c) })
  const encoder = new TextEncoder()
  return { stream, feed: (text: string) => controller.enqueue(encoder.encode(text)), close: () => controller.close(), error: (e: unknown) => controller.error(e) }
}

interface Page {
  readonly fetch: typeof fetch
  /** The bodies that reached the native fetch, in order. */
  readonly sent: string[]
  readonly responses: Response[]
  readonly events: PanelEvent[]
  readonly faults: string[]
  /** What the native fetch answers next. */
  answer(body: BodyInit | ReadableStream<Uint8Array>, type?: string): void
  mode: ZeroCodeMode
  /** The timers set, by delay; `elapse()` runs them all. */
  readonly timers: number[]
  elapse(): void
}

export function page(stateful = createStatefulResponses()): Page {
  const queue: Response[] = []
  const state: Page = {
    fetch: undefined as unknown as typeof fetch,
    sent: [],
    responses: [],
    events: [],
    faults: [],
    answer: (body, type = 'application/json') => void queue.push(new Response(body as BodyInit, { headers: { 'content-type': type } })),
    mode: 'guard',
    timers: [],
    elapse: () => {
      for (const run of due.splice(0)) run()
    },
  }
  const due: (() => void)[] = []
  const later = (run: () => void, ms: number) => {
    state.timers.push(ms)
    due.push(run)
  }
  const native = function fetch(_url: unknown, init?: RequestInit) {
    state.sent.push(String(init?.body))
    const response = queue.shift() ?? new Response('{"error":{"message":"no answer"}}', { status: 400 })
    state.responses.push(response)
    return Promise.resolve(response)
  }
  const context = vm.createContext({ fetch: native, location: { href: 'https://app.example/' }, ...STREAMS })
  const target = vm.runInContext('globalThis', context) as typeof globalThis
  const analysis = createWireAnalysis({ config: () => RECOMMENDED_CONFIG, emit: (e) => state.events.push(e), hookSaw: () => false, now: Date.now })
  const traffic = createResponsesTraffic({ analysis, fault: (m) => state.faults.push(m), later, stateful })
  installFetchInterceptor({ target, mode: () => state.mode, analysis: () => analysis, showAsNative: createNativeLook(target), responses: () => traffic })
  return Object.assign(state, { fetch: target.fetch })
}

export const post = (p: Page, body: object, url = URL_) => p.fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })

/** Runs the loop the SDKs run with previous_response_id, on JSON responses: three calls. */
export async function loop(p: Page, extra: object = {}) {
  const texts: string[] = []
  p.answer(json('resp_0', [call(1)]))
  texts.push(await (await post(p, { ...first, ...extra })).text())
  for (let n = 1; n <= 3; n++) {
    p.answer(json(`resp_${n}`, [call(n + 1)]))
    texts.push(await (await post(p, next(`resp_${n - 1}`, n, extra))).text())
  }
  return texts
}
