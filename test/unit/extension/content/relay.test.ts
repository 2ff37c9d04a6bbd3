import { beforeEach, describe, expect, it } from 'vitest'
import { createRelay, type Relay } from '../../../../extension/src/content/relay.ts'
import type { ContentReport } from '../../../../extension/src/protocol/messages.ts'
import { FakeClock } from '../support/fake-clock.ts'
import { FakePort } from '../support/fake-port.ts'
import { call, contentReport, v } from '../support/samples.ts'

let clock: FakeClock
let ports: FakePort[]
let resyncs: number
let relay: Relay
let refuse: boolean

const events = (tool: string): ContentReport => contentReport([call(tool)])
const tools = (port: FakePort) => port.posted.map((m) => (m as { events?: { tool: string }[] }).events?.[0]?.tool)
const last = () => ports.at(-1)!
/** The worker acknowledges everything `port` carried so far. */
const acknowledge = (port: FakePort) => port.receive({ v, kind: 'ack', seq: Math.max(0, ...port.posted.map((m) => (m as { seq: number }).seq)) })

function setup(maxQueued?: { messages: number; bytes: number }) {
  clock = new FakeClock()
  ports = []
  resyncs = 0
  refuse = false
  relay = createRelay({
    connect: () => {
      if (refuse) throw new Error('Extension context invalidated.')
      const port = new FakePort('content')
      ports.push(port)
      return port
    },
    resync: () => void resyncs++,
    now: clock.now,
    later: clock.later,
    ...(maxQueued ? { maxQueued } : {}),
  })
}

beforeEach(() => setup())

describe('the content relay', () => {
  it('connects only once it has something to send, and sends in order', () => {
    expect(ports).toHaveLength(0)
    relay.send(events('a'))
    relay.send(events('b'))
    clock.advance(0)
    expect(ports).toHaveLength(1)
    relay.send(events('c'))
    expect(tools(last())).toEqual(['a', 'b', 'c'])
    expect(resyncs).toBe(0)
  })

  it('without an agent, reconnects only when there is something to send, then asks for a snapshot', () => {
    relay.send(events('a'))
    clock.advance(5_000)
    acknowledge(last())
    last().close()
    clock.advance(60_000)
    expect(ports).toHaveLength(1)
    relay.send(events('b'))
    clock.advance(0)
    expect(ports).toHaveLength(2)
    expect(tools(last())).toEqual(['b'])
    expect(resyncs).toBe(1)
  })

  it('with an agent, reconnects as soon as the worker stops, backing off while it keeps failing', () => {
    relay.send(events('a'))
    relay.keepConnected()
    clock.advance(5_000)
    last().close()
    clock.advance(0)
    expect(ports).toHaveLength(2)
    expect(resyncs).toBe(1)
    // Connections that die at once: the delays grow.
    const opened: number[] = []
    for (let i = 0; i < 5; i++) {
      last().close()
      const before = ports.length
      let waited = 0
      while (ports.length === before) {
        clock.advance(10)
        waited += 10
      }
      opened.push(waited)
    }
    expect(opened).toEqual([100, 250, 500, 1_000, 2_500])
    // A connection that lasted is healthy: the next reconnect is immediate again.
    clock.advance(5_000)
    last().close()
    clock.advance(0)
    expect(ports).toHaveLength(8)
  })

  it('buffers while disconnected, bounded, oldest first', () => {
    setup({ messages: 3, bytes: 1e9 })
    relay.keepConnected()
    clock.advance(5_000)
    last().close()
    clock.advance(5_000)
    last().failPosts = true
    for (const tool of ['a', 'b', 'c', 'd', 'e']) relay.send(events(tool))
    clock.advance(2_000)
    expect(tools(last())).toEqual(['c', 'd', 'e'])
  })

  it('treats a failing post as a closed port and keeps the message', () => {
    relay.send(events('a'))
    clock.advance(0)
    acknowledge(last())
    last().failPosts = true
    relay.send(events('b'))
    clock.advance(1_000)
    expect(tools(last())).toEqual(['b'])
    expect(resyncs).toBe(1)
  })

  it('sends again, in order and marked, what a closed port left unacknowledged, before asking for a snapshot', () => {
    const order: string[] = []
    relay = createRelay({
      connect: () => {
        const port = new FakePort('content')
        const post = port.postMessage.bind(port)
        port.postMessage = (message) => {
          order.push(`post ${(message as { seq: number }).seq}`)
          post(message)
        }
        ports.push(port)
        return port
      },
      resync: () => void order.push('resync'),
      now: clock.now,
      later: clock.later,
      stream: 'frame-a',
    })
    relay.keepConnected()
    clock.advance(0)
    for (const tool of ['a', 'b', 'c']) relay.send(events(tool))
    // The worker read `a` and stopped before it read the rest.
    last().receive({ v, kind: 'ack', seq: 1 })
    clock.advance(5_000)
    last().close()
    order.length = 0
    clock.advance(0)
    expect(ports).toHaveLength(2)
    expect(last().posted).toEqual([
      { ...events('b'), stream: 'frame-a', seq: 2, resent: true },
      { ...events('c'), stream: 'frame-a', seq: 3, resent: true },
    ])
    expect(order).toEqual(['post 2', 'post 3', 'resync'])
    relay.send(events('d'))
    expect(last().posted.at(-1)).toEqual({ ...events('d'), stream: 'frame-a', seq: 4 })
  })

  it('without an agent, reconnects to deliver what the worker did not acknowledge, and not once it did', () => {
    relay.send(events('a'))
    clock.advance(5_000)
    last().close()
    clock.advance(0)
    expect(ports).toHaveLength(2)
    expect(tools(last())).toEqual(['a'])
    acknowledge(last())
    last().close()
    clock.advance(60_000)
    expect(ports).toHaveLength(2)
  })

  it('holds unacknowledged messages within its bounds, oldest first', () => {
    setup({ messages: 3, bytes: 1e9 })
    relay.keepConnected()
    clock.advance(0)
    for (const tool of ['a', 'b', 'c', 'd', 'e']) relay.send(events(tool))
    expect(tools(last())).toEqual(['a', 'b', 'c', 'd', 'e'])
    clock.advance(5_000)
    last().close()
    clock.advance(0)
    expect(tools(last())).toEqual(['c', 'd', 'e'])
  })

  it('asks for a snapshot when the worker requests it, ignoring anything else', () => {
    relay.send(events('a'))
    clock.advance(0)
    last().receive({ v, kind: 'resync' })
    last().receive({ v, kind: 'reload' })
    last().receive({ v: 2, kind: 'resync' })
    // Acknowledgements it cannot read acknowledge nothing: `a` is sent again.
    last().receive({ v, kind: 'ack', seq: '1' })
    last().receive({ v, kind: 'ack', seq: 1, extra: true })
    expect(resyncs).toBe(1)
    last().close()
    clock.advance(0)
    expect(tools(last())).toEqual(['a'])
  })

  it('goes quiet for good once the extension context is gone', () => {
    refuse = true
    relay.send(events('a'))
    clock.advance(0)
    expect(relay.alive).toBe(false)
    refuse = false
    relay.send(events('b'))
    relay.keepConnected()
    clock.advance(10_000)
    expect(ports).toHaveLength(0)
  })
})
