// Which reading an analysed request's response gets is told by one search of its body
// (streams/recognise.ts): a body that may be an agent-stream request has its response followed as
// that stream, and only any other has it read for waste (docs/zero-code.md, "Waste"), the wire
// guard saying whether (an opt-in detector on, a request of the four LLM APIs).
import vm from 'node:vm'
import { describe, expect, it, vi } from 'vitest'
import { RECOMMENDED_CONFIG, resolveConfig } from '../../../../../engine/index.ts'
import { installFetchInterceptor } from '../../../../../extension/src/page/fetch/install.ts'
import { createNativeLook } from '../../../../../extension/src/page/native-look.ts'
import { createAgentStreams } from '../../../../../extension/src/page/streams/agent-streams.ts'
import { streamCandidates } from '../../../../../extension/src/page/streams/recognise.ts'
import { createWireAnalysis, type WireAnalysis } from '../../../../../extension/src/page/wire/analysis.ts'
import { STREAMS } from '../responses/page-streams.ts'
import { UI_STREAM_HEADERS, uiChat } from './streams-page.ts'

vi.mock('../../../../../extension/src/page/streams/recognise.ts', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../../../../extension/src/page/streams/recognise.ts')>()
  return { ...original, streamCandidates: vi.fn(original.streamCandidates) }
})

const chat = { model: 'm', messages: [{ role: 'user', content: 'find it' }] }
const DETECTOR_ON = resolveConfig({ similar: { threshold: 0.8, minCalls: 3 } }, RECOMMENDED_CONFIG)

/** A page whose fetch answers `answer`; what the wire guard was asked to read for waste, and what the stream reading was handed. */
function usagePage(config = DETECTOR_ON) {
  const queue: Response[] = []
  const forUsage: string[] = []
  const streamed: string[] = []
  const native = function fetch() {
    return Promise.resolve(queue.shift() ?? new Response('{}'))
  }
  const target = vm.runInContext('globalThis', vm.createContext({ fetch: native, location: { href: 'https://app.example/' }, ...STREAMS })) as typeof globalThis
  const real = createWireAnalysis({ config: () => config, emit: () => undefined, hookSaw: () => false, now: Date.now })
  const analysis: WireAnalysis = {
    ...real,
    openResponse(text) {
      const open = real.openResponse!(text)
      if (open) forUsage.push(text)
      return open
    },
    openStream(text) {
      streamed.push(text)
      return { push: () => undefined, end: () => undefined }
    },
  }
  const streams = createAgentStreams(analysis)
  installFetchInterceptor({ target, mode: () => 'guard', analysis: () => analysis, showAsNative: createNativeLook(target), streams: () => streams })
  return {
    forUsage,
    streamed,
    /** Posts `body`, answered with `text` under `headers`; resolves once the page read the response to its end. */
    async post(body: object, text: string, headers: Record<string, string>) {
      queue.push(new Response(text, { headers }))
      const response = await target.fetch('https://app.example/api/anything', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
      return { text: await response.text(), adopted: Object.getOwnPropertyNames(response).includes('body') }
    },
  }
}

/** How often a body was searched for agent-stream names while `run` ran. */
async function searches(run: () => Promise<unknown>): Promise<number> {
  const counted = vi.mocked(streamCandidates)
  counted.mockClear()
  await run()
  return counted.mock.calls.length
}

describe("an analysed request's response", () => {
  it('of an LLM request is read for waste while a detector is on, its body searched once', async () => {
    const p = usagePage()
    const answer = '{"choices":[],"usage":{"total_tokens":5}}'
    expect(await searches(async () => expect(await p.post(chat, answer, { 'content-type': 'application/json' })).toEqual({ text: answer, adopted: true }))).toBe(1)
    expect(p.forUsage).toEqual([JSON.stringify(chat)])
    expect(p.streamed).toEqual([])
  })

  it('of an agent-stream request is followed as the stream only, its body searched once', async () => {
    const p = usagePage()
    const uiChatWithModel = { ...uiChat, model: 'm' }
    expect(await searches(() => p.post(uiChatWithModel, 'data: [DONE]\n\n', UI_STREAM_HEADERS))).toBe(1)
    expect(p.streamed).toEqual([JSON.stringify(uiChatWithModel)])
    expect(p.forUsage).toEqual([])
  })

  it("is left the browser's while no detector is on", async () => {
    const p = usagePage(RECOMMENDED_CONFIG)
    const answer = '{"choices":[]}'
    expect(await p.post(chat, answer, { 'content-type': 'application/json' })).toEqual({ text: answer, adopted: false })
    expect(p.forUsage).toEqual([])
  })
})
