import { describe, expect, it } from 'vitest'
import { RECOMMENDED_CONFIG } from '../../../../engine/index.ts'
import type { PanelEvent } from '../../../../extension/src/protocol/events.ts'
import type { StoreBatch } from '../../../../extension/src/panel/store/panel-store.ts'
import { createPanelStore } from '../../../../extension/src/panel/store/panel-store.ts'
import { pageLoad, recordingPage, repeat } from './support/recorded-session.ts'
import { callEvent } from '../support/samples.ts'

/** `count` distinct agents announced by `frameId`, each with one call. */
function agents(frameId: number, count: number, prefix = 'a'): StoreBatch {
  const events: PanelEvent[] = []
  for (let i = 1; i <= count; i++) {
    const id = `hook:${prefix}${i}`
    events.push({ type: 'agent', at: i, agent: { id, kind: 'hook', label: id } })
    events.push(callEvent({ at: i, agentId: id, tool: 't', args: '1' }))
  }
  return { frameId, url: `http://127.0.0.1/frame-${frameId}.html`, events }
}

const perFrame = (store: ReturnType<typeof createPanelStore>) => {
  const out = new Map<number, number>()
  for (const { record } of store.agents()) out.set(record.frameId, (out.get(record.frameId) ?? 0) + 1)
  return Object.fromEntries(out)
}

describe('agents per frame', () => {
  it('caps each subframe at 50 agents, counts the refused ones, and leaves the page its own', () => {
    const store = createPanelStore()
    store.ingest(agents(3, 80))
    store.ingest(agents(4, 10))
    store.ingest(agents(0, 120))
    expect(perFrame(store)).toEqual({ 3: 50, 4: 10, 0: 120 })
    // 30 agents over the cap, each announced and then calling
    expect(store.stats()).toMatchObject({ refused: 60, calls: 180 })
  })

  it('keeps room for the page: subframes together hold at most half of maxAgents', () => {
    const store = createPanelStore({ maxAgents: 20, maxAgentsPerFrame: 4 })
    for (let frame = 1; frame <= 5; frame++) store.ingest(agents(frame, 4))
    expect(store.agents()).toHaveLength(10)
    store.ingest(agents(0, 15))
    expect(perFrame(store)[0]).toBe(10)
    expect(store.agents()).toHaveLength(20)
  })

  it('frees a frame’s room when its agents are cleared away', () => {
    const store = createPanelStore({ preserveLog: true, maxAgentsPerFrame: 3 })
    store.ingest(agents(2, 3))
    store.ingest(pageLoad('http://127.0.0.1/frame-2.html', 2))
    store.ingest(agents(2, 3, 'b'))
    expect(perFrame(store)).toEqual({ 2: 3 })
    store.clear()
    store.ingest(agents(2, 3, 'c'))
    expect(perFrame(store)).toEqual({ 2: 3 })
    expect(store.agents().map((r) => r.record.descriptor.id)).toEqual(['hook:c1', 'hook:c2', 'hook:c3'])
  })
})

describe('the config in force', () => {
  it('comes from the top frame: a subframe’s config or snapshot never replaces it', () => {
    const store = createPanelStore()
    const top = { ...RECOMMENDED_CONFIG, thresholds: [4, 6] }
    const framed = { ...RECOMMENDED_CONFIG, thresholds: [2] }
    store.ingest({ frameId: 0, url: 'u', events: [{ type: 'config', at: 1, config: top }] })
    store.ingest({ frameId: 7, url: 'f', events: [{ type: 'config', at: 2, config: framed }] })
    expect(store.config()).toEqual(top)
    const page = recordingPage({ thresholds: [2] })
    repeat(page, { name: 'framed' }, 'grep', 1, 1)
    page.take()
    store.ingest({ frameId: 7, url: 'f', events: [page.snapshot()] })
    expect(store.config()).toEqual(top)
    // the framed agent itself is still recorded
    expect(store.agents().map((r) => r.record.frameId)).toEqual([7])
  })

  it('stays unknown while only subframes reported one', () => {
    const store = createPanelStore()
    store.ingest({ frameId: 3, url: 'f', events: [{ type: 'config', at: 1, config: RECOMMENDED_CONFIG }] })
    expect(store.config()).toBeUndefined()
  })
})

describe("the page's address and origin", () => {
  const load = (url: string): PanelEvent => ({ type: 'page-load', at: 1, url })

  it("come from the batch (the relay's address, the origin the browser named), never from the page-load event", () => {
    const store = createPanelStore()
    expect(store.pageOrigin()).toBeUndefined()
    store.ingest({ frameId: 0, url: 'http://127.0.0.1:8080/agent.html', origin: 'http://127.0.0.1:8080', events: [load('https://bank.example/accounts')] })
    expect([store.pageUrl(), store.pageOrigin()]).toEqual(['http://127.0.0.1:8080/agent.html', 'http://127.0.0.1:8080'])
    // A subframe of another origin, and a forged load from it: the page's stay.
    store.ingest({ frameId: 4, url: 'https://ads.example/slot', origin: 'https://ads.example', events: [load('https://bank.example/')] })
    expect([store.pageUrl(), store.pageOrigin()]).toEqual(['http://127.0.0.1:8080/agent.html', 'http://127.0.0.1:8080'])
    // The top frame loads a sandboxed document: its origin is opaque.
    store.ingest({ frameId: 0, url: 'http://127.0.0.1:8080/sandboxed', origin: 'null', events: [load('https://bank.example/')] })
    expect([store.pageUrl(), store.pageOrigin()]).toEqual(['http://127.0.0.1:8080/sandboxed', 'null'])
  })

  it('follow the top frame to its next document when the log is preserved', () => {
    const store = createPanelStore({ preserveLog: true })
    store.ingest({ frameId: 0, url: 'http://127.0.0.1:8080/agent.html', origin: 'http://127.0.0.1:8080', events: [load('http://127.0.0.1:8080/agent.html')] })
    store.ingest({ frameId: 0, url: 'https://app.example/next', origin: 'https://app.example', events: [load('https://bank.example/')] })
    expect([store.pageUrl(), store.pageOrigin()]).toEqual(['https://app.example/next', 'https://app.example'])
  })
})

describe('a Node process beside the page', () => {
  it('keeps the process’s agents and rows, in their order, when the page loads again after its events', () => {
    const store = createPanelStore()
    const server = agents(-8730, 2, 's')
    store.ingest(server)
    store.ingest(agents(0, 1, 'p'))
    const rowsOf = () => store.stats().entries
    expect([rowsOf(), store.stats().calls]).toEqual([3, 3])
    // The page's load reaches the panel after the process's events (their ways to the panel race).
    store.ingest(pageLoad())
    expect(perFrame(store)).toEqual({ [-8730]: 2 })
    // The process's two calls, and the page's load.
    expect([rowsOf(), store.stats().calls]).toEqual([3, 2])
  })
})
