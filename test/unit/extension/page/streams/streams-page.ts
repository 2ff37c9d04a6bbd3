// A page realm for the agent-stream tests, in Node: a separate realm stands for the page, its native
// fetch answers with the responses the test makes (bodies that make a chunk only when pulled, as a
// network body held back by the browser). The analysis is the real one but for its reading of the
// streams, which records what it is handed: the page's side alone is under test here.
import vm from 'node:vm'
import { RECOMMENDED_CONFIG } from '../../../../../engine/index.ts'
import type { AgentStreamProtocol } from '../../../../../engine/wire/index.ts'
import { installFetchInterceptor } from '../../../../../extension/src/page/fetch/install.ts'
import { createNativeLook } from '../../../../../extension/src/page/native-look.ts'
import { createAgentStreams } from '../../../../../extension/src/page/streams/agent-streams.ts'
import { createWireAnalysis, type WireAnalysis } from '../../../../../extension/src/page/wire/analysis.ts'
import type { ZeroCodeMode } from '../../../../../extension/src/protocol/zero-code-mode.ts'
import { STREAMS } from '../responses/page-streams.ts'

export const UI_STREAM_HEADERS = { 'content-type': 'text/event-stream', 'x-vercel-ai-ui-message-stream': 'v1' }
export const uiChat = { id: 'chat-1', messages: [{ id: 'm1', role: 'user', parts: [{ type: 'text', text: 'find it' }] }], trigger: 'submit-message' }
export const agUiRun = { threadId: 't1', runId: 'r1', state: {}, messages: [{ id: 'm1', role: 'user', content: 'find it' }], tools: [], context: [], forwardedProps: {} }

/** A body that makes the chunks `pieces` lists, one per pull, and records pulls and a cancel. */
export function pulledBody(pieces: readonly string[]) {
  const state = { pulls: 0, cancelled: false }
  const encoder = new TextEncoder()
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        const piece = pieces[state.pulls++]
        if (piece === undefined) controller.close()
        else controller.enqueue(encoder.encode(piece))
      },
      cancel: () => void (state.cancelled = true),
    },
    { highWaterMark: 0 },
  )
  return { stream, state }
}

export interface Opened {
  readonly text: string
  readonly protocol: AgentStreamProtocol
  /** What the reading was handed, in order, `<end>` or `<cut>` last. */
  readonly told: string[]
}

export function streamsPage() {
  const queue: Response[] = []
  const opened: Opened[] = []
  const state = { mode: 'guard' as ZeroCodeMode, reads: true }
  const native = function fetch() {
    return Promise.resolve(queue.shift() ?? new Response('{}', { status: 404 }))
  }
  const context = vm.createContext({ fetch: native, location: { href: 'https://app.example/' }, ...STREAMS })
  const target = vm.runInContext('globalThis', context) as typeof globalThis
  const real = createWireAnalysis({ config: () => RECOMMENDED_CONFIG, emit: () => undefined, hookSaw: () => false, now: Date.now })
  const analysis: WireAnalysis = {
    ...real,
    openStream(text, protocol) {
      if (!state.reads) return undefined
      const told: string[] = []
      opened.push({ text, protocol, told })
      return { push: (piece) => void told.push(piece), end: (cut) => void told.push(cut ? '<cut>' : '<end>') }
    },
  }
  const streams = createAgentStreams(analysis)
  installFetchInterceptor({ target, mode: () => state.mode, analysis: () => analysis, showAsNative: createNativeLook(target), streams: () => streams })
  return {
    state,
    opened,
    answer: (body: ReadableStream<Uint8Array> | string, headers: Record<string, string>) => void queue.push(new Response(body, { headers })),
    post: (body: object) => target.fetch('https://app.example/api/anything', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  }
}
