// @vitest-environment happy-dom
// @vitest-environment-options { "url": "https://app.example/chat?api_key=sk-unit-secret&q=1#access_token=frag-secret" }
// The page and the relay redact the page's URL before anything leaves them: the page-load event
// and the frame URL every batch carries to the service worker.
import { beforeAll, expect, it, vi } from 'vitest'
import type { ContentToBackground } from '../../../../extension/src/protocol/messages.ts'
import { FakeMessageChannel } from '../support/fake-message-channel.ts'

const sent = vi.hoisted(() => [] as ContentToBackground[])
vi.mock('webextension-polyfill', () => ({
  default: {
    runtime: {
      connect: () => ({
        postMessage: (message: ContentToBackground) => sent.push(JSON.parse(JSON.stringify(message))),
        onMessage: { addListener: () => {} },
        onDisconnect: { addListener: () => {} },
      }),
    },
    storage: { local: { get: async () => ({}) }, onChanged: { addListener: () => {} } },
  },
}))
// happy-dom's Request has no accessors for the interceptor to capture: zero-code mode is tested on its own.
vi.mock('../../../../extension/src/page/fetch/install.ts', () => ({ installFetchInterceptor: () => ({ snapshot: () => [] }) }))

beforeAll(async () => {
  vi.stubGlobal('chrome', { runtime: { onMessage: { addListener: () => {} } } })
  // happy-dom has no MessageChannel: one that clones and delivers in a later task, as Chrome's does.
  vi.stubGlobal('MessageChannel', FakeMessageChannel)
  // The page script first, as the manifest orders them: it takes the channel the relay offers.
  await import('../../../../extension/src/page/index.ts')
  await import('../../../../extension/src/content/index.ts')
})

it('no secret of the page URL reaches the service worker', async () => {
  expect(location.href).toContain('sk-unit-secret')
  // The page has something to say: its first call.
  ;(window as unknown as { __REPEAT_TOOL_GUARD__: { observe(exec: object): unknown } }).__REPEAT_TOOL_GUARD__.observe({ agent: {}, name: 'read', arguments: {} })
  await expect.poll(() => sent.filter((m) => m.kind === 'events').length).toBeGreaterThan(0)
  const batch = sent.find((m) => m.kind === 'events')!
  const redacted = 'https://app.example/chat?api_key=REDACTED&q=1'
  expect(batch).toMatchObject({ url: redacted })
  expect(batch.kind === 'events' && batch.events.slice(0, 2)).toMatchObject([{ type: 'page-load', url: redacted }, { type: 'config' }])
  expect(JSON.stringify(sent)).not.toMatch(/sk-unit-secret|frag-secret/)
})
