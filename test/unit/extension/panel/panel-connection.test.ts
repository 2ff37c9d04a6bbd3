import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { PROTOCOL_VERSION } from '../../../../extension/src/protocol/events.ts'
import { PANEL_PORT, type BackgroundToPanel, type TabBatch } from '../../../../extension/src/protocol/messages.ts'
import { reconnectDelay } from '../../../../extension/src/ui/backoff.ts'
import { connectPanel, type PanelConnectionOptions } from '../../../../extension/src/panel/host/panel-connection.ts'
import { createPanelStore } from '../../../../extension/src/panel/store/panel-store.ts'
import { recordingPage, repeat } from './support/recorded-session.ts'

class FakeEvent<T extends unknown[]> {
  private readonly listeners: ((...args: T) => void)[] = []
  addListener(listener: (...args: T) => void) {
    this.listeners.push(listener)
  }
  fire(...args: T) {
    for (const listener of this.listeners) listener(...args)
  }
}

class FakePort {
  readonly onMessage = new FakeEvent<[unknown]>()
  readonly onDisconnect = new FakeEvent<[]>()
  readonly posted: unknown[] = []
  disconnected = false
  constructor(readonly name: string) {}
  postMessage(message: unknown) {
    this.posted.push(message)
  }
  disconnect() {
    this.disconnected = true
  }
  /** The service worker went away. */
  close() {
    this.onDisconnect.fire()
  }
}

function fakeRuntime() {
  const ports: FakePort[] = []
  const runtime = {
    connect: vi.fn(({ name }: { name: string }) => {
      const port = new FakePort(name)
      ports.push(port)
      return port
    }),
  }
  return { ports, runtime: runtime as unknown as PanelConnectionOptions['runtime'] & typeof runtime }
}

const TAB = 7
const history = (batches: TabBatch[], truncated = false): BackgroundToPanel => ({ v: PROTOCOL_VERSION, kind: 'history', tabId: TAB, batches, truncated })
const batchMessage = (batch: TabBatch, tabId = TAB): BackgroundToPanel => ({ v: PROTOCOL_VERSION, kind: 'batch', tabId, batch })

beforeEach(() => vi.useFakeTimers())
afterEach(() => vi.useRealTimers())

describe('connectPanel', () => {
  it('subscribes to its tab and records what arrives', () => {
    const { ports, runtime } = fakeRuntime()
    const store = createPanelStore()
    connectPanel({ tabId: TAB, store, runtime })
    expect(ports).toHaveLength(1)
    expect(ports[0]!.name).toBe(PANEL_PORT)
    expect(ports[0]!.posted).toEqual([{ v: PROTOCOL_VERSION, kind: 'subscribe', tabId: TAB }])
    expect(store.connection()).toEqual({ kind: 'connecting' })

    const page = recordingPage()
    const agent = { name: 'a' }
    repeat(page, agent, 'grep', 1, 2)
    ports[0]!.onMessage.fire(history([page.batch()]))
    expect(store.connection()).toEqual({ kind: 'live' })
    repeat(page, agent, 'grep', 1, 1)
    ports[0]!.onMessage.fire(batchMessage(page.batch()))
    ports[0]!.onMessage.fire({ v: PROTOCOL_VERSION, kind: 'drops', tabId: TAB, drops: { shape: 4 } })
    expect(store.agents()[0]!.record.count).toBe(3)
    expect(store.drops()).toEqual({ shape: 4 })
  })

  it('drops, and counts, messages that fail validation or name another tab', () => {
    const { ports, runtime } = fakeRuntime()
    const store = createPanelStore()
    connectPanel({ tabId: TAB, store, runtime })
    const port = ports[0]!
    port.onMessage.fire({ v: PROTOCOL_VERSION + 1, kind: 'batch', tabId: TAB, batch: { frameId: 0, url: 'u', events: [] } })
    port.onMessage.fire({ v: PROTOCOL_VERSION, kind: 'batch', tabId: TAB, batch: { frameId: 0, url: 'u', events: [{ type: 'call' }] } })
    const page = recordingPage()
    repeat(page, { name: 'stranger' }, 'grep', 1, 1)
    port.onMessage.fire(batchMessage(page.batch(), TAB + 1))
    expect(store.drops()).toEqual({ version: 1, shape: 1, sender: 1 })
    expect(store.agents()).toEqual([])
  })

  it('reconnects with backoff when the port closes, and keeps everything recorded', () => {
    const { ports, runtime } = fakeRuntime()
    const store = createPanelStore()
    connectPanel({ tabId: TAB, store, runtime, delay: (attempt) => attempt * 100 })
    const page = recordingPage()
    const agent = { name: 'a' }
    repeat(page, agent, 'grep', 1, 3)
    const first = page.batch()
    ports[0]!.onMessage.fire(history([first]))

    ports[0]!.close()
    expect(store.connection()).toEqual({ kind: 'reconnecting', attempt: 1, retryInMs: 100 })
    vi.advanceTimersByTime(99)
    expect(ports).toHaveLength(1)
    vi.advanceTimersByTime(1)
    expect(ports).toHaveLength(2)
    // the new worker failed at once: the next try waits longer
    ports[1]!.close()
    expect(store.connection()).toEqual({ kind: 'reconnecting', attempt: 2, retryInMs: 200 })
    vi.advanceTimersByTime(200)
    expect(ports).toHaveLength(3)
    expect(ports[2]!.posted).toEqual([{ v: PROTOCOL_VERSION, kind: 'subscribe', tabId: TAB }])

    // The worker lived on and replays what the panel has already, plus what is new.
    repeat(page, agent, 'grep', 1, 2)
    ports[2]!.onMessage.fire(history([first, page.batch()]))
    expect(store.connection()).toEqual({ kind: 'live' })
    expect(store.stats()).toMatchObject({ calls: 5 })
    expect(store.agents()[0]!.record).toMatchObject({ count: 5, reminders: 2 })

    // and the backoff starts over after a good connection
    ports[2]!.close()
    expect(store.connection()).toEqual({ kind: 'reconnecting', attempt: 1, retryInMs: 100 })
  })

  it('records once a batch a relay sent again after its port closed, and what is new in it', () => {
    const { ports, runtime } = fakeRuntime()
    const store = createPanelStore()
    connectPanel({ tabId: TAB, store, runtime })
    const page = recordingPage()
    const agent = { name: 'a' }
    ports[0]!.onMessage.fire(history([]))
    repeat(page, agent, 'grep', 1, 3)
    const seen = page.batch()
    ports[0]!.onMessage.fire(batchMessage(seen))
    // The relay's port closed before the worker acknowledged `seen`: the next worker passes it on again.
    ports[0]!.onMessage.fire({ ...batchMessage(seen), replayed: true })
    repeat(page, agent, 'grep', 1, 2)
    ports[0]!.onMessage.fire({ ...batchMessage(page.batch()), replayed: true })
    expect(store.stats()).toMatchObject({ calls: 5 })
    expect(store.agents()[0]!.record).toMatchObject({ count: 5, reminders: 2 })
    expect(store.drops()).toEqual({})
  })

  it('keeps trying when the worker cannot be reached at all', () => {
    const { ports, runtime } = fakeRuntime()
    let fail = true
    const connect = runtime.connect.getMockImplementation()!
    runtime.connect.mockImplementation((info) => {
      if (fail) throw new Error('Extension context invalidated.')
      return connect(info)
    })
    const store = createPanelStore()
    connectPanel({ tabId: TAB, store, runtime, delay: () => 50 })
    expect(store.connection()).toMatchObject({ kind: 'reconnecting', attempt: 1 })
    fail = false
    vi.advanceTimersByTime(50)
    expect(ports).toHaveLength(1)
  })

  it('stops for good when closed', () => {
    const { ports, runtime } = fakeRuntime()
    const connection = connectPanel({ tabId: TAB, store: createPanelStore(), runtime, delay: () => 10 })
    connection.close()
    expect(ports[0]!.disconnected).toBe(true)
    ports[0]!.close()
    vi.advanceTimersByTime(1_000)
    expect(ports).toHaveLength(1)
  })
})

describe('reconnectDelay', () => {
  it('doubles from 100 ms up to 5 s, with jitter of ±20%', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8, 20].map((n) => reconnectDelay(n, () => 0.5))).toEqual([100, 200, 400, 800, 1600, 3200, 5000, 5000, 5000])
    expect(reconnectDelay(1, () => 0)).toBe(80)
    expect(reconnectDelay(1, () => 1)).toBe(120)
  })
})
