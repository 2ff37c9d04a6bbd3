// @vitest-environment happy-dom
// The page script and the content relay together on one window, as Chrome runs them in a tab:
// what the relay sends the service worker, when it reconnects after the worker stops, and the
// drops of both sides of the window hop.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import type { PageGuard } from '../../../extension/src/page/page-api.ts'
import { PROTOCOL_VERSION } from '../../../extension/src/protocol/events.ts'
import { CONTENT_SOURCE, PAGE_SOURCE, type ContentToBackground, type DropCounts } from '../../../extension/src/protocol/messages.ts'
import { checkContentToBackground } from '../../../extension/src/protocol/validate.ts'

/** One runtime.Port of the relay; `stop` is Chrome closing it when it stops the service worker. */
class WorkerPort {
  readonly posted: ContentToBackground[] = []
  /** The router's reason for each message it would refuse: asserted after each test, as a throw here would be swallowed by the relay's try/catch. */
  readonly refused: string[] = []
  private readonly messageListeners: ((message: unknown) => void)[] = []
  private readonly disconnectListeners: (() => void)[] = []
  readonly onMessage = { addListener: (l: (message: unknown) => void) => void this.messageListeners.push(l) }
  readonly onDisconnect = { addListener: (l: () => void) => void this.disconnectListeners.push(l) }
  postMessage(message: ContentToBackground): void {
    // Ports carry JSON: what the worker gets is a copy, checked as the router checks it.
    const copy = JSON.parse(JSON.stringify(message)) as unknown
    const checked = checkContentToBackground(copy)
    if (!checked.ok) this.refused.push(`${checked.reason}: ${checked.detail}`)
    this.posted.push(copy as ContentToBackground)
  }
  /** The worker sends `message` to the relay. */
  receive(message: unknown): void {
    for (const l of this.messageListeners) l(message)
  }
  stop(): void {
    for (const l of this.disconnectListeners) l()
  }
}

const ports = vi.hoisted(() => [] as WorkerPort[])
/** The listeners for messages the worker sends the tab outside any port, and how often storage was read. */
const outside = vi.hoisted(() => ({ listeners: [] as ((message: unknown) => void)[], storageReads: 0 }))
vi.mock('webextension-polyfill', () => ({
  default: {
    runtime: {
      connect: () => ports[ports.push(new WorkerPort()) - 1],
    },
    storage: {
      local: { get: async () => (outside.storageReads++, {}) },
      onChanged: { addListener: () => {} },
    },
  },
}))

// happy-dom's Request has no accessors for the interceptor to capture (it would report a fault):
// zero-code mode is tested on its own, here it installs and has no wire agents.
vi.mock('../../../extension/src/page/fetch/install.ts', () => ({ installFetchInterceptor: () => ({ snapshot: () => [] }) }))

const sent = () => ports.flatMap((p) => p.posted)
const sentEvents = () => sent().flatMap((m) => (m.kind === 'events' ? m.events : []))
const sentDrops = () =>
  sent().reduce<Record<string, number>>((sum, m) => {
    if (m.kind === 'drops') for (const [reason, n] of Object.entries(m.drops as DropCounts)) sum[reason] = (sum[reason] ?? 0) + n
    return sum
  }, {})
/** A message on the window from `source` (the page's own window unless told otherwise). */
const deliver = (data: unknown, source: unknown = window) => window.dispatchEvent(new MessageEvent('message', { data, source: source as Window }))

beforeAll(async () => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] })
  // The start-up half listens with Chrome's own API; the on-demand half uses the polyfill (above).
  vi.stubGlobal('chrome', { runtime: { onMessage: { addListener: (l: (message: unknown) => void) => void outside.listeners.push(l) } } })
  // happy-dom's postMessage names another object as the source; Chrome names this window, and
  // clones the message: both scripts must see what they see in a tab.
  window.postMessage = ((data: unknown) => void setTimeout(() => deliver(structuredClone(data)), 0)) as typeof window.postMessage
  await import('../../../extension/src/page/index.ts')
  await import('../../../extension/src/content/index.ts')
})

afterEach(() => {
  expect(ports.flatMap((p) => p.refused.splice(0))).toEqual([])
})

afterAll(() => {
  vi.useRealTimers()
  vi.unstubAllGlobals()
})

describe('the content relay with the page script', () => {
  it('neither reads storage nor opens a port while the page has nothing to say', async () => {
    await vi.advanceTimersByTimeAsync(60_000)
    expect(ports).toHaveLength(0)
    expect(outside.storageReads).toBe(0)
    // Not the worker's message: nothing happens.
    for (const listener of outside.listeners) listener({ v: PROTOCOL_VERSION, kind: 'reload' })
    await vi.advanceTimersByTimeAsync(1_000)
    expect(ports).toHaveLength(0)
  })

  it('has an idle page report its load when a panel asks, then leaves a stopped worker alone, resync or not', async () => {
    for (const listener of outside.listeners) listener({ v: PROTOCOL_VERSION, kind: 'resync' })
    await vi.advanceTimersByTimeAsync(50)
    expect(ports).toHaveLength(1)
    expect(outside.storageReads).toBeGreaterThan(0)
    expect(sentEvents().map((e) => e.type)).toEqual(['page-load', 'config', 'snapshot'])
    expect(sentEvents().at(-1)).toMatchObject({ type: 'snapshot', agents: [] })
    // A panel subscribed again: the page answers over the open port (once), with the same state.
    ports[0]!.receive({ v: PROTOCOL_VERSION, kind: 'resync' })
    for (const listener of outside.listeners) listener({ v: PROTOCOL_VERSION, kind: 'resync' })
    await vi.advanceTimersByTimeAsync(50)
    expect(sentEvents().map((e) => e.type)).toEqual(['page-load', 'config', 'snapshot', 'snapshot'])

    ports[0]!.stop()
    await vi.advanceTimersByTimeAsync(60_000)
    expect(ports).toHaveLength(1)
  })

  it('reconnects at once, and resyncs, once the page has an agent', async () => {
    const guard = (window as unknown as { __REPEAT_TOOL_GUARD__: PageGuard }).__REPEAT_TOOL_GUARD__
    await guard.postExecute({ agent: { name: 'unit' }, name: 'grep', arguments: { q: 1 } })
    // The first port lived under two seconds: the relay retries after the backoff's first step.
    await vi.advanceTimersByTimeAsync(500)
    expect(ports).toHaveLength(2)
    expect(sentEvents().map((e) => e.type)).toContain('call')

    ports[1]!.stop()
    await vi.advanceTimersByTimeAsync(1_000)
    expect(ports).toHaveLength(3)
    // The new worker starts empty: the page sent its state again over the new port.
    expect(ports[2]!.posted.flatMap((m) => (m.kind === 'events' ? m.events : []))).toEqual([
      expect.objectContaining({ type: 'snapshot', agents: [expect.objectContaining({ id: 'hook:1', tool: 'grep', count: 1 })] }),
    ])
  })

  it("adds the page's drops of forged relay messages to its own report", async () => {
    const frame = {}
    // Dropped by the page: a wrong version, a wrong shape, the relay's tag from another window.
    deliver({ source: CONTENT_SOURCE, v: PROTOCOL_VERSION + 1, kind: 'resync' })
    deliver({ source: CONTENT_SOURCE, v: PROTOCOL_VERSION, kind: 'reload' })
    deliver({ source: CONTENT_SOURCE, v: PROTOCOL_VERSION, kind: 'resync' }, frame)
    // Dropped by the relay: the page's tag from another window.
    deliver({ source: PAGE_SOURCE, v: PROTOCOL_VERSION, kind: 'events', events: [] }, frame)
    // Other scripts' traffic: neither side counts it.
    deliver({ source: 'someone-else', v: PROTOCOL_VERSION })
    await vi.advanceTimersByTimeAsync(1_000)
    expect(sentDrops()).toEqual({ version: 1, shape: 1, source: 2 })
  })
})
