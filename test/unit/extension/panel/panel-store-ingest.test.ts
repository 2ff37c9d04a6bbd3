// The panel store turns protocol events into agents, chains and timeline rows, within its limits.
import { describe, expect, it } from 'vitest'
import { createPanelStore } from '../../../../extension/src/panel/store/panel-store.ts'
import { recordingPage, repeat } from './support/recorded-session.ts'
import { GENTLE, rows, types } from './support/store-rows.ts'

describe('ingest', () => {
  it('builds agents, their chain and a timeline with the reminders exactly as sent', () => {
    const store = createPanelStore()
    const page = recordingPage()
    const agent = { name: 'researcher' }
    repeat(page, agent, 'grep', { q: 'x', path: '.' }, 5)
    store.ingest(page.batch())

    const [row] = store.agents()
    expect(row).toMatchObject({ depth: 0, children: 0 })
    expect(row!.record).toMatchObject({
      descriptor: { id: 'hook:1', kind: 'hook', label: 'researcher' },
      tool: 'grep',
      args: '{"path":".","q":"x"}',
      count: 5,
      nextThreshold: 8,
      calls: 5,
      reminders: 2,
    })
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
