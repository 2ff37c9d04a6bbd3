// The panel store's recording controls (pause, clear, preserve log) and its timeline filter.
import { describe, expect, it } from 'vitest'
import { createPanelStore, type PanelStore } from '../../../../extension/src/panel/store/panel-store.ts'
import { pageLoad, recordingPage, repeat } from './support/recorded-session.ts'
import { rows, types } from './support/store-rows.ts'

describe('recording controls', () => {
  it('pause stops recording rows but keeps agents and their chains current', () => {
    const store = createPanelStore()
    const page = recordingPage()
    const agent = { name: 'a' }
    repeat(page, agent, 'grep', 1, 2)
    store.ingest(page.batch())
    store.setPaused(true)
    repeat(page, agent, 'grep', 1, 2)
    store.ingest(page.batch())
    expect(types(store)).toEqual(['call', 'call'])
    expect(store.stats().notRecorded).toBe(3)
    expect(store.agents()[0]!.record).toMatchObject({ count: 4, calls: 2, reminders: 0 })
    store.setPaused(false)
    repeat(page, agent, 'grep', 1, 1)
    store.ingest(page.batch())
    expect(types(store)).toEqual(['call', 'call', 'call', 'reminder'])
  })

  it('clear empties the timeline but keeps the live agents and their chains', () => {
    const store = createPanelStore()
    const page = recordingPage()
    const agent = { name: 'a' }
    repeat(page, agent, 'grep', 1, 3)
    store.ingest(page.batch())
    store.ingest({ frameId: 0, url: 'u', events: [{ type: 'fault', at: 1, message: 'boom' }] })
    store.clear()
    expect(types(store)).toEqual([])
    expect(store.faults()).toEqual([])
    expect(store.agents()[0]!.record).toMatchObject({ descriptor: { label: 'a' }, count: 3, calls: 0, reminders: 0 })
    repeat(page, agent, 'grep', 1, 1)
    store.ingest(page.batch())
    expect(store.agents()[0]!.record).toMatchObject({ count: 4, calls: 1 })
  })

  it('a page load clears everything unless preserve-log is on', () => {
    const store = createPanelStore()
    let page = recordingPage()
    repeat(page, { name: 'first' }, 'grep', 1, 3)
    store.ingest(page.batch())
    store.ingest(pageLoad())
    expect(store.agents()).toEqual([])
    expect(types(store)).toEqual(['page-load'])

    store.setPreserveLog(true)
    page = recordingPage()
    repeat(page, { name: 'second' }, 'grep', 1, 1)
    store.ingest(page.batch())
    store.ingest(pageLoad())
    page = recordingPage()
    repeat(page, { name: 'third' }, 'grep', 1, 1)
    store.ingest(page.batch())
    const agents = store.agents().map((r) => r.record)
    expect(agents.map((a) => [a.descriptor.label, a.key, store.isCurrent(a)])).toEqual([
      ['second', '0.0:hook:1', false],
      ['third', '0.1:hook:1', true],
    ])
    expect(types(store)).toEqual(['page-load', 'call', 'page-load', 'call'])
    // clearing with preserve-log on forgets the earlier pages' agents
    store.clear()
    expect(store.agents().map((r) => r.record.descriptor.label)).toEqual(['third'])
  })

  it('a subframe load never clears the top page', () => {
    const store = createPanelStore()
    const page = recordingPage()
    repeat(page, { name: 'top' }, 'grep', 1, 1)
    store.ingest(page.batch())
    store.ingest(pageLoad('http://127.0.0.1/frame.html', 2))
    expect(store.agents()).toHaveLength(1)
    expect(types(store)).toEqual(['call'])
  })
})

describe('filter', () => {
  function filled(): PanelStore {
    const store = createPanelStore()
    const page = recordingPage()
    const agent = { name: 'a' }
    repeat(page, agent, 'grep', { q: 'Needle' }, 3)
    repeat(page, agent, 'read', { file: 'x.txt' }, 2)
    store.ingest(page.batch())
    return store
  }

  it('filters by tool', () => {
    const store = filled()
    store.setFilter({ tool: 'read', text: '' })
    expect(rows(store.timeline(null)).map((e) => e.event.type)).toEqual(['call', 'call'])
    store.setFilter({ tool: 'grep', text: '' })
    expect(types(store)).toEqual(['call', 'call', 'call', 'reminder'])
  })

  it('filters by text, case-insensitively, in arguments and reminder text, literally', () => {
    const store = filled()
    store.setFilter({ tool: null, text: 'needle' })
    expect(types(store)).toEqual(['call', 'call', 'call'])
    store.setFilter({ tool: null, text: 'CAREFULLY analyze' })
    expect(types(store)).toEqual(['reminder'])
    store.setFilter({ tool: null, text: 'x.txt' })
    expect(types(store)).toEqual(['call', 'call'])
    store.setFilter({ tool: null, text: 'x.t*' })
    expect(types(store)).toEqual([])
  })

  it('extends a filtered view with new rows and drops evicted ones without a rebuild', () => {
    const store = createPanelStore({ maxEntries: 6 })
    const page = recordingPage({ thresholds: [100] })
    const agent = { name: 'a' }
    store.setFilter({ tool: 'keep', text: '' })
    // Transparent calls: no chain resets between them, only calls.
    page.guard.configure({ exclude: ['*'] })
    page.guard.observe({ agent, name: 'keep', arguments: 1 })
    page.guard.observe({ agent, name: 'skip', arguments: 1 })
    page.take()
    page.guard.observe({ agent, name: 'keep', arguments: 1 })
    page.guard.observe({ agent, name: 'skip', arguments: 1 })
    store.ingest(page.batch())
    const view = store.timeline(null)
    const epoch = view.epoch
    expect(view.end - view.start).toBe(1)
    for (let i = 2; i < 6; i++) {
      page.guard.observe({ agent, name: 'keep', arguments: i })
      page.guard.observe({ agent, name: 'skip', arguments: i })
    }
    store.ingest(page.batch())
    const after = store.timeline(null)
    expect(after.epoch).toBe(epoch)
    // 10 calls, 6 kept: keep 3, 4, 5 survive
    expect(rows(after).map((e) => (e.event as { args: string }).args)).toEqual(['3', '4', '5'])
    store.setFilter({ tool: 'skip', text: '' })
    expect(store.timeline(null).epoch).not.toBe(epoch)
  })
})
