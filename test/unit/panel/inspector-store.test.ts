import { describe, expect, it } from 'vitest'
import { RECOMMENDED_CONFIG } from '../../../engine/index.ts'
import { createPanelStore, type PanelStore } from '../../../extension/src/panel/store/panel-store.ts'
import type { TimelineEntry } from '../../../extension/src/panel/store/timeline-entry.ts'
import type { TimelineView } from '../../../extension/src/panel/store/timeline-view.ts'
import { pageLoad, recordingPage, repeat } from './recorded-session.ts'

const GENTLE = 'You are repeating the exact same tool call with identical arguments. Carefully analyze the previous result before calling again: if the task is not complete, try a different approach or different arguments instead of repeating the call.'

function rows(view: TimelineView): TimelineEntry[] {
  const out: TimelineEntry[] = []
  for (let i = view.start; i < view.end; i++) out.push(view.entry(i))
  return out
}

const types = (store: PanelStore, agent: string | null = null) => rows(store.timeline(agent)).map((e) => e.event.type)

describe('ingest', () => {
  it('builds agents, their chain and a timeline with the reminders exactly as sent', () => {
    const store = createPanelStore()
    const page = recordingPage()
    const agent = { name: 'researcher' }
    repeat(page, agent, 'grep', { q: 'x', path: '.' }, 5)
    store.ingest(page.batch())

    const [row] = store.agents()
    expect(row).toMatchObject({ depth: 0, children: 0 })
    expect(row!.record).toMatchObject({ descriptor: { id: 'hook:1', kind: 'hook', label: 'researcher' }, tool: 'grep', args: '{"path":".","q":"x"}', count: 5, nextThreshold: 8, calls: 5, reminders: 2 })
    expect(types(store)).toEqual(['call', 'call', 'call', 'reminder', 'call', 'call', 'reminder'])
    const reminders = rows(store.timeline(row!.record.key)).flatMap((e) => (e.event.type === 'reminder' ? [e.event.text] : []))
    expect(reminders[0]).toBe(GENTLE)
    expect(reminders[1]).toBe(
      'Repeated tool call detected:\n- tool: grep\n- consecutive_calls: 5\n- arguments: {"path":".","q":"x"}\nThe repeated calls are not making progress. Do not call this tool with these exact arguments again. Inspect the latest result and choose a different action, different arguments, or finish the task if enough evidence has been gathered.',
    )
    expect(store.stats()).toMatchObject({ entries: 7, calls: 5, discarded: 0 })
    expect(store.tools()).toEqual(['grep'])
  })

  it('nests subagents under their parent and keeps transparent calls out of the chain', () => {
    const store = createPanelStore()
    const page = recordingPage()
    const lead = { name: 'lead' }
    const helper = { name: 'helper', parent: lead }
    const other = { name: 'other' }
    page.guard.observe({ agent: lead, name: 'plan', arguments: {} })
    page.guard.observe({ agent: other, name: 'read', arguments: { f: 1 } })
    page.guard.observe({ agent: helper, name: 'grep', arguments: { q: 1 } })
    page.guard.observe({ agent: helper, name: 'todo_write', arguments: { t: 1 } })
    page.guard.observe({ agent: helper, name: 'grep', arguments: { q: 1 } })
    store.ingest(page.batch())

    expect(store.agents().map((r) => [r.record.descriptor.label, r.depth])).toEqual([
      ['lead', 0],
      ['helper', 1],
      ['other', 0],
    ])
    const helperRecord = store.agents()[1]!.record
    expect(helperRecord).toMatchObject({ tool: 'grep', count: 2, calls: 3, parentKey: store.agents()[0]!.record.key })
    const todo = rows(store.timeline(helperRecord.key)).find((e) => e.event.type === 'call' && e.event.tool === 'todo_write')
    expect(todo?.event).toMatchObject({ tracked: false, count: 1 })
  })

  it('keys agents by frame and page load, so equal ids from two frames stay apart', () => {
    const store = createPanelStore()
    const top = recordingPage()
    const frame = recordingPage()
    top.guard.observe({ agent: { name: 'top' }, name: 'a', arguments: 1 })
    frame.guard.observe({ agent: { name: 'framed' }, name: 'b', arguments: 1 })
    store.ingest(top.batch(0))
    store.ingest(frame.batch(3))
    expect(store.agents().map((r) => [r.record.key, r.record.descriptor.label])).toEqual([
      ['0.0:hook:1', 'top'],
      ['3.0:hook:1', 'framed'],
    ])
  })

  it('records calls of an agent it never saw described, labelled by id', () => {
    const store = createPanelStore()
    const page = recordingPage()
    const agent = {}
    page.guard.observe({ agent, name: 'x', arguments: 1 })
    page.take()
    page.guard.observe({ agent, name: 'x', arguments: 1 })
    store.ingest(page.batch())
    expect(store.agents()[0]!.record).toMatchObject({ descriptor: { id: 'hook:1', kind: 'hook', label: 'hook:1' }, count: 2 })
  })
})

describe('limits', () => {
  it('keeps at most maxEntries rows, dropping the oldest of every view consistently', () => {
    const store = createPanelStore({ maxEntries: 10 })
    const page = recordingPage({ thresholds: [100] })
    const a = { name: 'a' }
    const b = { name: 'b' }
    for (let i = 0; i < 12; i++) {
      page.guard.observe({ agent: a, name: 'ta', arguments: 1 })
      page.guard.observe({ agent: b, name: 'tb', arguments: 1 })
    }
    store.ingest(page.batch())
    expect(store.stats()).toMatchObject({ entries: 10, calls: 10, discarded: 14 })
    const all = store.timeline(null)
    expect(all.end - all.start).toBe(10)
    expect(all.entry(all.start).event).toMatchObject({ tool: 'ta', seq: 8 })
    const [ra, rb] = store.agents().map((r) => r.record)
    expect(rows(store.timeline(ra!.key)).map((e) => (e.event as { seq: number }).seq)).toEqual([8, 9, 10, 11, 12])
    expect(rows(store.timeline(rb!.key))).toHaveLength(5)
    // agents outlive their rows, with their live chain state
    expect(ra).toMatchObject({ count: 12, calls: 12 })
  })

  it('refuses agents past maxAgents and counts their events as refused', () => {
    const store = createPanelStore({ maxAgents: 2 })
    const page = recordingPage()
    for (const name of ['a', 'b', 'c']) page.guard.observe({ agent: { name }, name: 't', arguments: 1 })
    store.ingest(page.batch())
    expect(store.agents()).toHaveLength(2)
    expect(store.stats()).toMatchObject({ refused: 2, discarded: 0 })
  })

  it('bounds the faults it keeps', () => {
    const store = createPanelStore({ maxFaults: 3 })
    store.ingest({ frameId: 0, url: 'u', events: Array.from({ length: 5 }, (_, i) => ({ type: 'fault' as const, at: i, message: `f${i}` })) })
    expect(store.faults().map((f) => f.message)).toEqual(['f2', 'f3', 'f4'])
  })
})

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

  it('a snapshot\'s wire agents keep how they were reached', () => {
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
