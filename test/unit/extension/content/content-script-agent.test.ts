// @vitest-environment happy-dom
// The page script and the content relay together on one window, as Chrome runs them in a tab whose
// page runs an agent: the relay keeps a port open, and what a stopped worker never read reaches the
// next one.
import { describe, expect, it, vi } from 'vitest'
import type { PageGuard } from '../../../../extension/src/page/page-api.ts'
import { tab, useContentTab } from './support/content-tab.ts'

vi.mock('webextension-polyfill', async () => (await import('./support/content-tab.ts')).tabModules['webextension-polyfill'])
vi.mock('../../../../extension/src/page/fetch/install.ts', async () => (await import('./support/content-tab.ts')).tabModules.fetchInstall)

useContentTab()

describe('the content relay of a page with an agent', () => {
  it('reconnects at once when the worker stops, sends again what it did not read, then has the page resync', async () => {
    const guard = (window as unknown as { __REPEAT_TOOL_GUARD__: PageGuard }).__REPEAT_TOOL_GUARD__
    const grep = { agent: { name: 'unit' }, name: 'grep', arguments: { q: 1 } }
    await guard.postExecute(grep)
    // Long enough for the port to count as healthy: the relay then reconnects without delay.
    await vi.advanceTimersByTimeAsync(2_500)
    expect(tab.ports).toHaveLength(1)
    const [first] = tab.ports
    expect(first!.events().map((e) => e.type)).toEqual(['page-load', 'config', 'agent', 'call'])

    // Chrome is stopping the worker: the second call reaches the port, and nobody reads it.
    first!.acknowledging = false
    await guard.postExecute(grep)
    await vi.advanceTimersByTimeAsync(0)
    expect(first!.events().filter((e) => e.type === 'call')).toHaveLength(2)
    first!.stop()
    await vi.advanceTimersByTimeAsync(0)

    expect(tab.ports).toHaveLength(2)
    const [resent, ...rest] = tab.ports[1]!.posted
    expect(resent).toMatchObject({ kind: 'events', seq: first!.posted.at(-1)!.seq, resent: true, events: [expect.objectContaining({ type: 'call', count: 2 })] })
    // Then the page's state, as the new worker starts empty.
    await vi.advanceTimersByTimeAsync(50)
    expect(tab.ports[1]!.events().slice(1)).toEqual([expect.objectContaining({ type: 'snapshot', agents: [expect.objectContaining({ id: 'hook:1', tool: 'grep', count: 2 })] })])
    expect(rest.every((m) => m.resent === undefined)).toBe(true)
  })
})
