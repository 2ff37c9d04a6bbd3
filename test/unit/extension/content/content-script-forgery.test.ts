// @vitest-environment happy-dom
// The page script and the content relay together on one window, as Chrome runs them in a tab whose
// page forges their messages on the window: neither script listens there, so nothing forged is
// applied, relayed or even counted.
import { describe, expect, it, vi } from 'vitest'
import { RECOMMENDED_CONFIG } from '../../../../engine/index.ts'
import type { PageGuard } from '../../../../extension/src/page/page-api.ts'
import { PROTOCOL_VERSION } from '../../../../extension/src/protocol/events.ts'
import { CONTENT_SOURCE, PAGE_SOURCE } from '../../../../extension/src/protocol/messages.ts'
import { deliver, sent, sentEvents, useContentTab } from './support/content-tab.ts'

vi.mock('webextension-polyfill', async () => (await import('./support/content-tab.ts')).tabModules['webextension-polyfill'])
vi.mock('../../../../extension/src/page/fetch/install.ts', async () => (await import('./support/content-tab.ts')).tabModules.fetchInstall)

useContentTab()

describe('messages a page forges on the window', () => {
  it('reach neither the page script nor the relay', async () => {
    const v = PROTOCOL_VERSION
    deliver({ source: CONTENT_SOURCE, v, kind: 'config', config: { ...RECOMMENDED_CONFIG, thresholds: [2, 4] } })
    deliver({ source: CONTENT_SOURCE, v, kind: 'config', config: { thresholds: [1] } })
    deliver({ source: PAGE_SOURCE, v, kind: 'events', events: [{ type: 'fault', at: 1, message: 'forged' }] })
    deliver({ source: PAGE_SOURCE, v: v + 1, kind: 'events', events: [] })
    // The page's own first call, after them: once the worker has it, the forgeries were long read.
    const guard = (window as unknown as { __REPEAT_TOOL_GUARD__: PageGuard }).__REPEAT_TOOL_GUARD__
    guard.observe({ agent: { name: 'unit' }, name: 'grep', arguments: {} })
    await vi.advanceTimersByTimeAsync(1_000)
    expect(sentEvents().map((e) => e.type)).toEqual(['page-load', 'config', 'agent', 'call'])
    expect(sentEvents()[1]).toMatchObject({ config: RECOMMENDED_CONFIG })
    expect(guard.config).toEqual(RECOMMENDED_CONFIG)
    expect(sent().filter((m) => m.kind === 'drops')).toEqual([])
  })
})
