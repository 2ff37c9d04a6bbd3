// Every kind of record the panel keeps counts in its byte budget and goes under it, and whatever it
// holds exports to a file it opens again, both ways, with exactly what was written.
import { describe, expect, it } from 'vitest'
import { RECOMMENDED_CONFIG } from '../../../../engine/index.ts'
import type { PanelEvent } from '../../../../extension/src/protocol/events.ts'
import type { StoreBatch } from '../../../../extension/src/panel/store/panel-store.ts'
import { createPanelStore, type PanelStore, type SessionContent } from '../../../../extension/src/panel/store/panel-store.ts'
import { maxSessionBytes } from '../../../../extension/src/panel/store/session-size.ts'
import { callEvent } from '../support/samples.ts'

const KB = 1024
const CONTENTS: readonly SessionContent[] = ['with-arguments', 'sanitized']

function call(agentId: string, seq: number, args: string, tool = 't', at = seq): PanelEvent {
  return callEvent({ at, agentId, seq, tool, args })
}

const batch = (frameId: number, events: PanelEvent[]): StoreBatch => ({ frameId, url: `https://app.example/frame-${frameId}`, events })

/** Ingests every batch, checking after each that the store holds no more than its budget. */
function feed(store: PanelStore, batches: Iterable<StoreBatch>): void {
  for (const b of batches) {
    store.ingest(b)
    expect(store.stats().bytes).toBeLessThanOrEqual(store.maxBytes)
  }
}

/**
 * Exports both ways; a store of the same budget opens each file and holds exactly what it says.
 * (Files are compared as booleans: a failure would print megabytes.)
 */
function expectRoundTrips(store: PanelStore): void {
  for (const content of CONTENTS) {
    const file = store.exportSession(content)
    expect(Buffer.byteLength(file)).toBeLessThanOrEqual(maxSessionBytes(store.maxBytes))
    const copy = createPanelStore({ maxBytes: store.maxBytes })
    const imported = copy.importSession(file)
    expect(imported.ok ? imported.warnings : imported.errors).toEqual([])
    expect(copy.exportSession('with-arguments') === file, `${content}: the imported session holds what the file says`).toBe(true)
    expect(copy.exportSession(content) === file, `${content}: exported again, the same file`).toBe(true)
    expect(copy.stats().bytes).toBeLessThanOrEqual(store.maxBytes)
  }
}

/** `events` in batches of `size`, as the top frame sends them. */
const batches = (events: readonly PanelEvent[], size: number): StoreBatch[] => [...chunks(events, size)].map((group) => batch(0, group))

function* chunks<T>(items: Iterable<T>, size: number): Generator<T[]> {
  let chunk: T[] = []
  for (const item of items) {
    chunk.push(item)
    if (chunk.length < size) continue
    yield chunk
    chunk = []
  }
  if (chunk.length > 0) yield chunk
}

describe('the byte budget covers every kind of record', () => {
  // The case had 100,000 frames; 10,000 (40 MB of addresses as counted) make the same point.
  it('frames: 10,000 subframes with 2 KB addresses leave the top frame’s rows and stay within 1 MB', { timeout: 60_000 }, () => {
    const store = createPanelStore({ maxBytes: 1024 * KB })
    feed(store, [batch(0, [call('hook:1', 1, '{"q":1}'), call('hook:1', 2, '{"q":2}')])])
    const subframes = function* () {
      for (let frameId = 1; frameId <= 10_000; frameId++) {
        const url = `https://ads.example/${'a'.repeat(2_000)}?slot=${frameId}`
        yield { frameId, url, events: [{ type: 'page-load', at: frameId, url }] } satisfies StoreBatch
      }
    }
    feed(store, subframes())
    feed(store, [batch(0, [call('hook:1', 3, '{"q":3}')])])
    // The frames that hold no agent went first: every row of the top frame is still there.
    expect(store.stats()).toMatchObject({ entries: 3, discarded: 0 })
    expect(store.session().frames.length).toBeLessThan(1_000)
    expectRoundTrips(store)
  })

  it('agents: 2,000 with 4,000-character runs go, the first seen first, once no row is left', () => {
    const store = createPanelStore({ maxBytes: 256 * KB })
    const events: PanelEvent[] = []
    for (let i = 1; i <= 2_000; i++) {
      events.push({ type: 'agent', at: i, agent: { id: `hook:${i}`, kind: 'hook', label: `agent ${i}`.padEnd(200, '.') } })
      events.push(call(`hook:${i}`, 1, `${i}`.padEnd(4_000, 'a'), 't', i))
    }
    feed(store, batches(events, 500))
    const listed = store.agents().map((row) => row.record.descriptor.id)
    expect(listed.length).toBeGreaterThan(0)
    expect(listed.length).toBeLessThan(2_000)
    expect(listed.at(-1)).toBe('hook:2000')
    expect(listed[0]).not.toBe('hook:1')
    // Every row went before the first agent did: no row is left to name an agent no longer listed.
    expect(store.stats()).toMatchObject({ entries: 0, calls: 0, discarded: 2_000 })
    expectRoundTrips(store)
  })

  it('rows and faults: the oldest rows first, then the oldest faults', () => {
    const store = createPanelStore({ maxBytes: 256 * KB })
    const reminder = (seq: number): PanelEvent => ({ type: 'reminder', at: seq, agentId: 'hook:1', seq, tool: 't', count: 3, level: 'gentle', text: `${seq}`.padEnd(20_000, 'r') })
    feed(store, [
      batch(0, [1, 2, 3].map(reminder)),
      batch(
        0,
        Array.from({ length: 200 }, (_, i) => ({ type: 'fault', at: i, message: `${i}`.padEnd(30_000, '\u0001') }) as PanelEvent),
      ),
    ])
    expect(store.stats()).toMatchObject({ entries: 0, discarded: 3 })
    expect(store.faults().at(-1)?.at).toBe(199)
    expectRoundTrips(store)
  })

  it('tool names: a thousand distinct 256-character names go with their last call', () => {
    const store = createPanelStore({ maxBytes: 128 * KB })
    feed(
      store,
      batches(
        Array.from({ length: 1_000 }, (_, i) => call('hook:1', i + 1, '{}', `${i}`.padEnd(256, 'n'))),
        100,
      ),
    )
    expect(store.tools().length).toBe(store.stats().entries)
    expectRoundTrips(store)
  })

  it('cycle marks: reminders naming many long tools, over many agents', () => {
    const store = createPanelStore({ maxBytes: 256 * KB })
    const tools = Array.from({ length: 200 }, (_, i) => `${i}`.padEnd(200, 'c'))
    const text = `Repeated cycle of tool calls detected:\n- cycle: ${tools.join(' -> ')}\n- repetitions: 2\n- calls:`
    const events: PanelEvent[] = []
    for (let agent = 1; agent <= 20; agent++)
      // More than the 64 marks an agent keeps: the oldest give their bytes back as they go.
      for (let seq = 1; seq <= 80; seq++) events.push({ type: 'reminder', at: seq, agentId: `hook:${agent}`, seq: seq * 1_000, tool: tools[0]!, count: 2, level: 'cycle', text })
    feed(store, batches(events, 80))
    expectRoundTrips(store)
  })

  it('replay fingerprints: at most a sixteenth of the budget while rows are held', () => {
    const store = createPanelStore({ maxBytes: 256 * KB })
    const resets = Array.from({ length: 20_000 }, (_, i): PanelEvent => ({ type: 'reset', at: i, agentId: 'hook:1', reason: 'different-call', previousCount: i }))
    feed(store, batches(resets, 2_000))
    expect(store.stats().entries).toBeGreaterThan(0)
    expectRoundTrips(store)
  })

  it('the config: one too large for the budget goes last', () => {
    const store = createPanelStore({ maxBytes: 64 * KB })
    const config = { ...RECOMMENDED_CONFIG, include: Array.from({ length: 3 }, (_, i) => `tool_${i}_`.padEnd(30_000, 'x')) }
    feed(store, [batch(0, [{ type: 'config', at: 1, config }])])
    expect(store.config()).toBeUndefined()
    feed(store, [batch(0, [{ type: 'config', at: 2, config: RECOMMENDED_CONFIG }])])
    expect(store.config()).toEqual(RECOMMENDED_CONFIG)
    expectRoundTrips(store)
  })
})

/** A call whose every number is as long as JSON writes one. */
function longestCall(agentId: string, seq: number, args: string): PanelEvent {
  const far = Number.MAX_SAFE_INTEGER
  return { ...(call(agentId, seq, args) as Extract<PanelEvent, { type: 'call' }>), argsLength: far, count: far, nextThreshold: far, result: 'r', resultLength: far }
}

describe('the largest file a full store writes', () => {
  it('still opens: characters JSON writes six bytes long, the longest numbers, the shortest texts', () => {
    const store = createPanelStore({ maxBytes: 256 * KB, maxAgentsPerFrame: 2_000 })
    const far = Number.MAX_SAFE_INTEGER
    const control = (n: number) => '\u0001'.repeat(n)
    const frameId = far
    const events: PanelEvent[] = [{ type: 'agent', at: Number.MAX_VALUE, agent: { id: `hook:${control(195)}`, kind: 'hook', label: control(200), parentId: `hook:${control(195)}` } }]
    for (let seq = far - 5_000; seq < far; seq++) {
      events.push({ ...longestCall(`hook:${control(195)}`, seq, seq % 2 ? 'x' : control(40)), at: Number.MAX_VALUE })
      events.push({ type: 'reset', at: 1e300 + seq, agentId: 'hook:€', reason: 'result-changed', previousCount: far })
      events.push({ type: 'fault', at: Number.MAX_VALUE, message: seq % 2 ? 'f' : control(100) })
    }
    feed(
      store,
      [...chunks(events, 2_000)].map((group) => ({ frameId, url: `https://app.example/${'€'.repeat(1_000)}`, events: group })),
    )
    expectRoundTrips(store)
  })
})
