import { describe, expect, it } from 'vitest'
import { createPanelStore, type PanelStore } from '../../../../extension/src/panel/store/panel-store.ts'
import { pageLoad, recordingPage, repeat } from './support/recorded-session.ts'

/** A session with a bit of everything: subagents, frames, page loads, resets, faults, drops. */
function busyStore(): PanelStore {
  const store = createPanelStore({ preserveLog: true })
  store.ingest(pageLoad())
  let page = recordingPage()
  const lead = { name: 'lead' }
  const helper = { name: 'helper', parent: lead }
  repeat(page, lead, 'grep', { q: 'x', deep: { b: 1, a: [1, 2] } }, 5)
  page.guard.observe({ agent: helper, name: 'todo_write', arguments: { items: ['a'] } })
  repeat(page, helper, 'read', 'not json at all', 3)
  page.guard.promptSubmit(helper)
  page.guard.observe({ agent: helper, name: 'read', arguments: '<b>html</b>' }, { denied: true, isError: true })
  store.ingest(page.batch())
  const framed = recordingPage()
  repeat(framed, { name: 'framed' }, 'grep', 1, 3)
  store.ingest(framed.batch(4))
  store.ingest({
    frameId: 0,
    url: 'u',
    events: [
      { type: 'fault', at: 5, message: 'postExecute: boom' },
      { type: 'config', at: 6, config: page.guard.config },
    ],
  })
  store.ingest({
    frameId: 0,
    url: 'u',
    events: [
      { type: 'agent', at: 7, agent: { id: 'wire:1', kind: 'wire', label: 'You are a helpful', format: 'openai-chat' } },
      { type: 'request', at: 8, agentId: 'wire:1', url: 'http://127.0.0.1/v1/chat/completions', format: 'openai-chat', calls: 3, remindersInserted: 1, rewritten: true },
      { type: 'reminder', at: 8, agentId: 'wire:1', seq: 3, tool: 'search', count: 3, level: 'gentle', text: 'You are repeating…', placement: 'messages[7]' },
    ],
  })
  store.setDrops({ shape: 3, size: 1 })
  store.countDrop('version')
  store.ingest(pageLoad())
  page = recordingPage()
  repeat(page, { name: 'after reload' }, 'ls', '/', 2)
  store.ingest(page.batch())
  return store
}

describe('export and import', () => {
  it('round-trips a session exactly', () => {
    const original = busyStore()
    const text = original.exportSession()
    const copy = createPanelStore()
    const result = copy.importSession(text)
    expect(result).toMatchObject({ ok: true, warnings: [] })
    expect(copy.session()).toStrictEqual(original.session())
    expect(copy.exportSession()).toBe(text)
    // and what the views show is the same
    expect(copy.agents().map((r) => [r.record.key, r.depth, copy.isCurrent(r.record)])).toEqual(original.agents().map((r) => [r.record.key, r.depth, original.isCurrent(r.record)]))
    expect(copy.stats()).toMatchObject({ entries: original.stats().entries, calls: original.stats().calls })
    expect(copy.tools()).toEqual(original.tools())
  })

  it('pauses recording after an import so live events do not mix into the file', () => {
    const store = createPanelStore()
    store.importSession(busyStore().exportSession())
    expect(store.paused).toBe(true)
  })

  it('rejects a malformed file with the problems found and keeps the current session', () => {
    const store = busyStore()
    const before = store.exportSession()
    const session = JSON.parse(before)
    session.entries[2].event.tool = '' // an empty tool name
    session.entries[3].agent = '9.9:hook:404' // an agent the file does not hold
    session.agents[0].count = -1
    const result = store.importSession(JSON.stringify(session))
    expect(result.ok).toBe(false)
    if (result.ok) return
    expect(result.errors).toEqual([
      'session.agents[0].count must be a non-negative integer',
      expect.stringMatching(/^session\.entries\[2\]\.event is not a valid event: event\.tool/),
      'session.entries[3].agent names no agent of the session',
    ])
    expect(store.exportSession()).toBe(before)
  })

  it.each([
    ['not json', 'The file is not JSON'],
    ['[]', 'session must be an object'],
    ['{"format":"something-else"}', 'session.version is missing'],
    [JSON.stringify({ format: 'x', version: 1, config: null, frames: [], agents: [], entries: [], faults: [], drops: {}, discarded: 0 }), 'session.format must be "repeat-tool-guard/session"'],
    [JSON.stringify({ format: 'repeat-tool-guard/session', version: 2, config: null, frames: [], agents: [], entries: [], faults: [], drops: {}, discarded: 0 }), 'session.version 2 is not supported'],
    [
      JSON.stringify({ format: 'repeat-tool-guard/session', version: 1, config: { thresholds: [1] }, frames: [], agents: [], entries: [], faults: [], drops: {}, discarded: 0 }),
      'session.config is not a valid event',
    ],
    [
      JSON.stringify({ format: 'repeat-tool-guard/session', version: 1, config: null, frames: [], agents: [], entries: [], faults: [], drops: { bogus: 1 }, discarded: 0 }),
      'session.drops.bogus is not expected',
    ],
  ])('explains why %s is not a session', (text, message) => {
    const result = createPanelStore().importSession(text)
    expect(result.ok).toBe(false)
    if (!result.ok) expect(result.errors.join('\n')).toContain(message)
  })

  it('refuses an entry whose agent key does not match its event', () => {
    const session = JSON.parse(busyStore().exportSession())
    const call = session.entries.findIndex((e: { event: { type: string } }) => e.event.type === 'call')
    session.entries[call].event.agentId = 'hook:77'
    const result = createPanelStore().importSession(JSON.stringify(session))
    expect(result.ok).toBe(false)
    if (!result.ok) expect(result.errors[0]).toMatch(/belongs to .* but its event names hook:77/)
  })

  it('keeps the newest rows of a file larger than its limit, and says so', () => {
    const text = busyStore().exportSession()
    const total = JSON.parse(text).entries.length
    const store = createPanelStore({ maxEntries: 5 })
    const result = store.importSession(text)
    expect(result).toMatchObject({ ok: true, warnings: [`Kept the newest 5 of ${total} timeline rows (this panel's limit).`] })
    expect(store.stats()).toMatchObject({ entries: 5, discarded: total - 5 })
  })
})
