// A request is analysed with all the page has read of the responses the guard watches
// (later-reading.ts): the fetch hook hands the guard every chunk still queued before it asks the
// analysis, so a client-side tool's follow-up, sent the moment the page has read the stream, is
// decided on with the whole of it.
import { expect, test } from 'vitest'
import { installFetchInterceptor } from '../../../../../extension/src/page/fetch/install.ts'
import { createNativeLook } from '../../../../../extension/src/page/native-look.ts'
import { createAgentStreams } from '../../../../../extension/src/page/streams/agent-streams.ts'
import { createWireAnalysis, type WireAnalysis } from '../../../../../extension/src/page/wire/analysis.ts'
import { RECOMMENDED_CONFIG } from '../../../../../engine/index.ts'
import { pulledBody, UI_STREAM_HEADERS, uiChat } from '../streams/streams-page.ts'
import { channelRealm } from './channel-realm.ts'

test('the follow-up request is analysed once the guard has read all of the stream the page read', async () => {
  const responses: Response[] = []
  const { target } = channelRealm({ fetch: () => Promise.resolve(responses.shift() ?? new Response('{}')), location: { href: 'https://app.example/' } })
  const told: string[] = []
  /** What the stream's reading had been told when each request was analysed. */
  const toldWhenPlanned: string[][] = []
  const real = createWireAnalysis({ config: () => RECOMMENDED_CONFIG, emit: () => undefined, hookSaw: () => false, now: Date.now })
  const analysis: WireAnalysis = {
    ...real,
    plan(...args) {
      toldWhenPlanned.push([...told])
      return real.plan(...args)
    },
    openStream: () => ({ push: (piece) => void told.push(piece), end: (cut) => void told.push(cut ? '<cut>' : '<end>') }),
  }
  const streams = createAgentStreams(analysis)
  installFetchInterceptor({ target, mode: () => 'guard', analysis: () => analysis, showAsNative: createNativeLook(target), streams: () => streams })
  const post = () => target.fetch('https://app.example/api/chat', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(uiChat) })
  responses.push(new Response(pulledBody(['data: {"type":"start"}\n\n', 'data: {"type":"finish"}\n\n']).stream, { headers: UI_STREAM_HEADERS }))
  const first = await post()
  expect(await first.text()).toBe('data: {"type":"start"}\n\ndata: {"type":"finish"}\n\n')
  await post()
  expect(toldWhenPlanned).toEqual([[], ['data: {"type":"start"}\n\n', 'data: {"type":"finish"}\n\n', '<end>']])
})
