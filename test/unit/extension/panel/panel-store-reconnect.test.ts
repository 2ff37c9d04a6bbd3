// The panel store after a reconnect (replayed history, re-sent snapshots), and the drop totals and
// config the page and the service worker report.
import { describe, expect, it } from 'vitest'
import { RECOMMENDED_CONFIG } from '../../../../engine/index.ts'
import { createPanelStore } from '../../../../extension/src/panel/store/panel-store.ts'
import { pageLoad, recordingPage, repeat } from './support/recorded-session.ts'
import { types } from './support/store-rows.ts'

describe('reconnect', () => {
  it('skips replayed history it already recorded and keeps what is new', () => {
    const store = createPanelStore()
    const page = recordingPage()
    const agent = { name: 'a' }
    store.ingest(pageLoad())
    repeat(page, agent, 'grep', 1, 3)
    const first = page.batch()
    store.ingest(first)
    page.guard.promptSubmit(agent)
    repeat(page, agent, 'grep', 1, 1)
    const second = page.batch()
    store.ingestHistory([pageLoad(), first, second], false, { replayed: true })
    expect(types(store)).toEqual(['page-load', 'call', 'call', 'call', 'reminder', 'reset', 'call'])
    store.ingestHistory([first, second], true, { replayed: true })
    expect(store.stats()).toMatchObject({ entries: 7, historyTruncated: true })
  })

  it('a page load replayed after a reconnect does not clear the panel again', () => {
    const store = createPanelStore()
    const load = pageLoad()
    store.ingest(load)
    const page = recordingPage()
    repeat(page, { name: 'a' }, 'grep', 1, 2)
    const batch = page.batch()
    store.ingest(batch)
    store.ingestHistory([load, batch], false, { replayed: true })
    expect(store.agents()).toHaveLength(1)
    expect(types(store)).toEqual(['page-load', 'call', 'call'])
  })

  it('merges a re-sent snapshot: chain state and config update, recorded agents stay', () => {
    const store = createPanelStore()
    const page = recordingPage()
    const kept = { name: 'kept' }
    const gone = { name: 'only-in-panel' }
    repeat(page, kept, 'grep', 1, 2)
    repeat(page, gone, 'read', 1, 1)
    store.ingest(page.batch())
    // The page kept going while the panel was disconnected; it then re-sends its state.
    repeat(page, kept, 'grep', 1, 2)
    const late = { name: 'late', parent: kept }
    repeat(page, late, 'ls', '/', 1)
    page.take()
    page.guard.configure({ thresholds: [4, 6] })
    store.ingest({ frameId: 0, url: 'u', events: [page.snapshot()] })
    const byLabel = new Map(store.agents().map((r) => [r.record.descriptor.label, r]))
    expect([...byLabel.keys()]).toEqual(['kept', 'late', 'only-in-panel'])
    expect(byLabel.get('kept')!.record).toMatchObject({ count: 4, nextThreshold: 6, tool: 'grep', calls: 2 })
    expect(byLabel.get('late')).toMatchObject({ depth: 1, record: { count: 1, tool: 'ls' } })
    expect(store.config()?.thresholds).toEqual([4, 6])
  })

  it('keeps how an agent was reached when a snapshot brings it back', () => {
    const store = createPanelStore()
    const agent = { id: 'webmcp:1', kind: 'webmcp', label: 'WebMCP tools', reach: 'webmcp' } as const
    store.ingest({ frameId: 0, url: 'u', events: [{ type: 'agent', at: 1, agent }] })
    store.ingest({ frameId: 0, url: 'u', events: [{ type: 'snapshot', at: 2, agents: [{ ...agent, tool: 't', args: '{}', count: 2, nextThreshold: 3 }], config: RECOMMENDED_CONFIG }] })
    expect(store.agents().map((r) => r.record.descriptor)).toEqual([agent])
  })

  it("a snapshot's wire agents keep how they were reached", () => {
    const store = createPanelStore()
    const agents = [{ id: 'wire:1', kind: 'wire', label: 'axios agent', format: 'openai-chat', reach: 'xhr', tool: 'read', args: '{}', count: 3, nextThreshold: 5 }] as const
    store.ingest({ frameId: 0, url: 'u', events: [{ type: 'snapshot', at: 1, agents, config: RECOMMENDED_CONFIG }] })
    expect(store.agents().map((r) => r.record.descriptor)).toEqual([{ id: 'wire:1', kind: 'wire', label: 'axios agent', format: 'openai-chat', reach: 'xhr' }])
  })
})

describe('drops', () => {
  it('adds the panel’s own drops to the totals the service worker reports', () => {
    const store = createPanelStore()
    store.setDrops({ shape: 2, size: 1 })
    store.countDrop('shape')
    store.countDrop('version')
    expect(store.drops()).toEqual({ shape: 3, size: 1, version: 1 })
    store.setDrops({ shape: 5 })
    expect(store.drops()).toEqual({ shape: 6, version: 1 })
  })
})

describe('config', () => {
  it('reports the config the page says is in force', () => {
    const store = createPanelStore()
    expect(store.config()).toBeUndefined()
    store.ingest({ frameId: 0, url: 'u', events: [{ type: 'config', at: 1, config: RECOMMENDED_CONFIG }] })
    expect(store.config()).toEqual(RECOMMENDED_CONFIG)
  })
})
