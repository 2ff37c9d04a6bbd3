import { describe, expect, it } from 'vitest'
import { RECOMMENDED_CONFIG } from '../../../../engine/index.ts'
import type { PanelEvent } from '../../../../extension/src/protocol/events.ts'
import type { StoreBatch } from '../../../../extension/src/panel/store/panel-store.ts'
import { createPanelStore } from '../../../../extension/src/panel/store/panel-store.ts'
import { ReplayGuard } from '../../../../extension/src/panel/store/replay-guard.ts'
import { rowBytes, textBytes } from '../../../../extension/src/panel/store/retained-bytes.ts'
import { textDigest } from '../../../../extension/src/panel/store/text-digest.ts'
import { callEvent } from '../support/samples.ts'

const KB = 1024

function reminders(from: number, count: number, chars: number): StoreBatch {
  const events: PanelEvent[] = []
  for (let i = from; i < from + count; i++) events.push({ type: 'reminder', at: i, agentId: 'hook:1', seq: i, tool: 't', count: 3, level: 'gentle', text: `${i}`.padEnd(chars, 'x') })
  return { frameId: 0, url: 'u', events }
}

const faults = (from: number, count: number, chars: number): StoreBatch => ({
  frameId: 0,
  url: 'u',
  events: Array.from({ length: count }, (_, i) => ({ type: 'fault' as const, at: from + i, message: `${from + i}`.padEnd(chars, 'f') })),
})

describe('byte budget', () => {
  it('drops the oldest rows once their texts pass maxBytes, well before the row cap, and counts them', () => {
    const store = createPanelStore({ maxBytes: 1_000 * KB })
    // 100 reminders of 20,000 characters: about 4 MB estimated, four times the budget.
    for (let b = 0; b < 10; b++) store.ingest(reminders(b * 10 + 1, 10, 20_000))
    const { entries, bytes, discarded } = store.stats()
    expect(bytes).toBeLessThanOrEqual(1_000 * KB)
    expect(entries).toBeLessThan(100)
    expect(entries).toBeGreaterThan(0)
    expect(entries + discarded).toBe(100)
    const view = store.timeline(null)
    // the newest rows are the ones kept
    expect(view.event(view.end - 1)).toMatchObject({ seq: 100 })
    expect(view.event(view.start)).toMatchObject({ seq: 100 - entries + 1 })
  })

  it('counts every string a row keeps: arguments, reminder texts and URLs', () => {
    // preserve-log: the page load below must not clear what was measured before it
    const store = createPanelStore({ preserveLog: true })
    const call = (args: string): PanelEvent => callEvent({ at: 1, tool: 't', args })
    const sizes: number[] = []
    const measure = (event: PanelEvent) => {
      const before = store.stats().bytes
      store.ingest({ frameId: 0, url: 'u', events: [event] })
      sizes.push(store.stats().bytes - before)
    }
    // The agent, its frame and the tool name are counted once, with the first call.
    store.ingest({ frameId: 0, url: 'u', events: [call('a')] })
    measure(call('b'))
    measure(call('b'.repeat(1_001)))
    measure({ type: 'request', at: 1, agentId: 'wire:1', url: 'h'.repeat(1_000), format: 'openai-chat', calls: 0, remindersInserted: 0, rewritten: false })
    measure({ type: 'page-load', at: 2, url: 'p'.repeat(500) })
    // two bytes a character, in the row and in the agent's current run
    expect(sizes[1]! - sizes[0]!).toBe(2 * 2_000)
    expect(sizes[2]!).toBeGreaterThan(2_000)
    expect(sizes[3]!).toBeGreaterThan(1_000)
  })

  it('counts fault texts and evicts the oldest faults once no row is left to drop', () => {
    const store = createPanelStore({ maxBytes: 300 * KB })
    store.ingest(reminders(1, 2, 10_000))
    store.ingest(faults(1, 10, 30_000))
    expect(store.stats().bytes).toBeLessThanOrEqual(300 * KB)
    expect(store.stats()).toMatchObject({ entries: 0, discarded: 2 })
    const kept = store.faults().map((f) => f.at)
    expect(kept.length).toBeGreaterThan(0)
    expect(kept.length).toBeLessThan(10)
    expect(kept.at(-1)).toBe(10)
  })

  it('keeps both bounds: the row cap still applies to small rows', () => {
    const store = createPanelStore({ maxEntries: 5, maxBytes: 1_000 * KB })
    store.ingest(reminders(1, 8, 10))
    expect(store.stats()).toMatchObject({ entries: 5, discarded: 3 })
  })

  it('gives back the bytes of rows it drops and of a clear', () => {
    const store = createPanelStore({ maxBytes: 1_000 * KB })
    // The agent, listed before any row: what a clear leaves.
    store.ingest({ frameId: 0, url: 'u', events: [{ type: 'agent', at: 1, agent: { id: 'hook:1', kind: 'hook', label: 'hook:1' } }] })
    const listed = store.stats().bytes
    store.ingest(reminders(1, 10, 20_000))
    const full = store.stats().bytes
    for (let b = 1; b < 20; b++) store.ingest(reminders(b * 10 + 1, 10, 20_000))
    // steady state: the budget is reused, not leaked
    expect(store.stats().bytes).toBeLessThanOrEqual(Math.max(full, 1_000 * KB))
    // A tool name and a cycle's tools, both let go by a clear.
    const cycle = 'Repeated cycle of tool calls detected:\n- cycle: a -> b\n- repetitions: 2\n- calls:'
    store.ingest({
      frameId: 0,
      url: 'u',
      events: [
        callEvent({ at: 1, seq: 500, tool: 'named', args: '{}', tracked: false, count: 0 }),
        { type: 'reminder', at: 1, agentId: 'hook:1', seq: 501, tool: 'a', count: 2, level: 'cycle', text: cycle },
      ],
    })
    store.clear()
    expect(store.stats()).toMatchObject({ entries: 0 })
    // Reminders leave no replay fingerprint: what is left is the agent, still listed, and its frame.
    expect(store.stats().bytes).toBe(listed)
  })

  it('counts every kind of record: frames, agents, tool names, cycle marks, fingerprints, the config', () => {
    const store = createPanelStore({ preserveLog: true })
    const grows = (events: PanelEvent[], frameId = 0, url = 'u', origin?: string): number => {
      const before = store.stats().bytes
      store.ingest(origin === undefined ? { frameId, url, events } : { frameId, url, origin, events })
      return store.stats().bytes - before
    }
    const call = (seq: number, tool: string): PanelEvent => callEvent({ at: seq, seq, tool, args: '{}', tracked: false, count: 0 })
    grows([call(1, 'seen'.padEnd(256, 's'))])
    // A subframe heard of for the first time: its address, and its origin.
    const address = `https://f.example/${'a'.repeat(2_000)}`
    expect(grows([{ type: 'page-load', at: 1, url: address }], 7, address)).toBeGreaterThan(2 * 2_000)
    const origin = `https://${'o'.repeat(2_000)}.example`
    const load: PanelEvent[] = [{ type: 'page-load', at: 1, url: 'v' }]
    expect(grows(load, 9, 'v', origin) - grows(load, 8, 'v')).toBeGreaterThanOrEqual(2 * 2_000)
    // An agent: its label.
    expect(grows([{ type: 'agent', at: 1, agent: { id: 'hook:2', kind: 'hook', label: 'l'.repeat(200) } }])).toBeGreaterThan(2 * 200)
    // A tool name the panel lists: once in its row, once in the list.
    expect(grows([call(2, 'new'.padEnd(256, 'n'))]) - grows([call(3, 'seen'.padEnd(256, 's'))])).toBeGreaterThanOrEqual(2 * 256)
    // A cycle's tools, kept beside its row.
    const tools = ['x'.repeat(200), 'y'.repeat(200)]
    const reminder = (level: 'gentle' | 'cycle', seq: number): PanelEvent => ({
      type: 'reminder',
      at: 1,
      agentId: 'hook:1',
      seq,
      tool: 'x',
      count: 2,
      level,
      text: `Repeated cycle of tool calls detected:\n- cycle: ${tools.join(' -> ')}\n- repetitions: 2`,
    })
    expect(grows([reminder('cycle', 4)]) - grows([reminder('gentle', 5)])).toBeGreaterThanOrEqual(2 * 400)
    // A reset's replay fingerprint, beside its row.
    const reset = (previousCount: number) => ({ type: 'reset', at: 1, agentId: 'hook:1', reason: 'prompt', previousCount }) as const
    expect(grows([reset(1)])).toBe(rowBytes(reset(1), '0.0:hook:1') + textBytes(`0|reset|1|=hook:1|prompt|1`))
    // The config in force.
    expect(grows([{ type: 'config', at: 1, config: { ...RECOMMENDED_CONFIG, include: ['i'.repeat(10_000)] } }])).toBeGreaterThan(2 * 10_000)
  })
})

describe('replay fingerprints', () => {
  it('hold digests, not texts: a 65,536-character fault costs as little as a short one', () => {
    const guard = new ReplayGuard(10)
    guard.repeat(0, { type: 'fault', at: 1, message: 'short' })
    const short = guard.bytes
    guard.repeat(0, { type: 'fault', at: 2, message: 'x'.repeat(65_536) })
    expect(guard.bytes - short).toBeLessThan(short + 40)
    // still recognises a replay, and tells texts apart
    expect(guard.repeat(0, { type: 'fault', at: 2, message: 'x'.repeat(65_536) })).toBe(true)
    expect(guard.repeat(0, { type: 'fault', at: 2, message: `${'x'.repeat(65_535)}y` })).toBe(false)
  })

  it('gives back the bytes of fingerprints it forgets', () => {
    const guard = new ReplayGuard(2)
    for (let i = 0; i < 50; i++) guard.repeat(0, { type: 'page-load', at: i, url: 'u' })
    const two = guard.bytes
    for (let i = 50; i < 100; i++) guard.repeat(0, { type: 'page-load', at: i, url: 'u' })
    expect(guard.bytes).toBe(two)
  })

  it('keeps short texts as they are, and digests long ones to their length and a hash', () => {
    expect(textDigest('hook:1')).toBe('=hook:1')
    const long = 'x'.repeat(100)
    expect(textDigest(long)).toMatch(/^#100:[0-9a-z]+$/)
    expect(textDigest(long)).not.toBe(textDigest(`${'x'.repeat(99)}y`))
  })
})
