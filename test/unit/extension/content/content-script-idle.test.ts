// @vitest-environment happy-dom
// The page script and the content relay together on one window, as Chrome runs them in a tab whose
// page has no agent: it costs the worker nothing until a panel asks about it.
import { describe, expect, it, vi } from 'vitest'
import { PROTOCOL_VERSION } from '../../../../extension/src/protocol/events.ts'
import { sentEvents, tab, tellTopFrame, useContentTab } from './support/content-tab.ts'

vi.mock('webextension-polyfill', async () => (await import('./support/content-tab.ts')).tabModules['webextension-polyfill'])
vi.mock('../../../../extension/src/page/fetch/install.ts', async () => (await import('./support/content-tab.ts')).tabModules.fetchInstall)

useContentTab()

describe('the content relay of a page without an agent', () => {
  it('reads no storage and opens no port, reports its load when a panel asks, then leaves a stopped worker alone, resync or not', async () => {
    await vi.advanceTimersByTimeAsync(60_000)
    expect(tab.ports).toHaveLength(0)
    expect(tab.storageReads).toBe(0)
    // Not the worker's message: nothing happens.
    tellTopFrame({ v: PROTOCOL_VERSION, kind: 'reload' })
    await vi.advanceTimersByTimeAsync(1_000)
    expect(tab.ports).toHaveLength(0)

    tellTopFrame({ v: PROTOCOL_VERSION, kind: 'resync' })
    await vi.advanceTimersByTimeAsync(50)
    expect(tab.ports).toHaveLength(1)
    expect(tab.storageReads).toBeGreaterThan(0)
    expect(sentEvents().map((e) => e.type)).toEqual(['page-load', 'config', 'snapshot'])
    expect(sentEvents().at(-1)).toMatchObject({ type: 'snapshot', agents: [] })
    // A panel subscribed again: the page answers over the open port (once), with the same state.
    tab.ports[0]!.receive({ v: PROTOCOL_VERSION, kind: 'resync' })
    tellTopFrame({ v: PROTOCOL_VERSION, kind: 'resync' })
    await vi.advanceTimersByTimeAsync(50)
    expect(sentEvents().map((e) => e.type)).toEqual(['page-load', 'config', 'snapshot', 'snapshot'])

    // The worker acknowledged all of it: nothing to send again.
    tab.ports[0]!.stop()
    await vi.advanceTimersByTimeAsync(60_000)
    expect(tab.ports).toHaveLength(1)
  })
})
