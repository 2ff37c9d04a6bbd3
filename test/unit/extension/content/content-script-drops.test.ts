// @vitest-environment happy-dom
// The page script and the content relay together on one window, as Chrome runs them in a tab: a
// malformed message on their private channel, from either end, is dropped by the script it reaches
// and counted, and both counts reach the worker as one report.
import { describe, expect, it, vi } from 'vitest'
import { PROTOCOL_VERSION } from '../../../../extension/src/protocol/events.ts'
import { CONTENT_SOURCE, PAGE_SOURCE } from '../../../../extension/src/protocol/messages.ts'
import { channel, sentDrops, useContentTab } from './support/content-tab.ts'

vi.mock('webextension-polyfill', async () => (await import('./support/content-tab.ts')).tabModules['webextension-polyfill'])
vi.mock('../../../../extension/src/page/fetch/install.ts', async () => (await import('./support/content-tab.ts')).tabModules.fetchInstall)

useContentTab()

describe('the private channel between the page script and the relay', () => {
  it('drops and counts malformed messages of either end, in one report', async () => {
    const { port1: relayEnd, port2: pageEnd } = channel()
    // Reaching the page script: a wrong version, a wrong shape.
    relayEnd.postMessage({ source: CONTENT_SOURCE, v: PROTOCOL_VERSION + 1, kind: 'resync' })
    relayEnd.postMessage({ source: CONTENT_SOURCE, v: PROTOCOL_VERSION, kind: 'reload' })
    // Reaching the relay: the other end's tag, and a message that is no message.
    pageEnd.postMessage({ source: CONTENT_SOURCE, v: PROTOCOL_VERSION, kind: 'events', events: [] })
    pageEnd.postMessage('hello')
    pageEnd.postMessage({ source: PAGE_SOURCE, v: PROTOCOL_VERSION, kind: 'events', events: 'all' })
    await vi.advanceTimersByTimeAsync(1_000)
    expect(sentDrops()).toEqual({ version: 1, shape: 3, source: 1 })
  })
})
