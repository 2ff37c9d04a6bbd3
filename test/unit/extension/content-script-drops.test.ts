// @vitest-environment happy-dom
// The page script and the content relay together on one window, as Chrome runs them in a tab: the
// drops of both sides of the window hop reach the worker as one report.
import { describe, expect, it, vi } from 'vitest'
import { PROTOCOL_VERSION } from '../../../extension/src/protocol/events.ts'
import { CONTENT_SOURCE, PAGE_SOURCE } from '../../../extension/src/protocol/messages.ts'
import { deliver, sentDrops, useContentTab } from './content-tab.ts'

vi.mock('webextension-polyfill', async () => (await import('./content-tab.ts')).tabModules['webextension-polyfill'])
vi.mock('../../../extension/src/page/fetch/install.ts', async () => (await import('./content-tab.ts')).tabModules.fetchInstall)

useContentTab()

describe('the content relay with the page script', () => {
  it("adds the page's drops of forged relay messages to its own report", async () => {
    const frame = {}
    // Dropped by the page: a wrong version, a wrong shape, the relay's tag from another window.
    deliver({ source: CONTENT_SOURCE, v: PROTOCOL_VERSION + 1, kind: 'resync' })
    deliver({ source: CONTENT_SOURCE, v: PROTOCOL_VERSION, kind: 'reload' })
    deliver({ source: CONTENT_SOURCE, v: PROTOCOL_VERSION, kind: 'resync' }, frame)
    // Dropped by the relay: the page's tag from another window.
    deliver({ source: PAGE_SOURCE, v: PROTOCOL_VERSION, kind: 'events', events: [] }, frame)
    // Other scripts' traffic: neither side counts it.
    deliver({ source: 'someone-else', v: PROTOCOL_VERSION })
    await vi.advanceTimersByTimeAsync(1_000)
    expect(sentDrops()).toEqual({ version: 1, shape: 1, source: 2 })
  })
})
