// A hostile client cannot grow the process's memory past the bridge's stated bounds.
import { afterEach, describe, expect, it, vi } from 'vitest'
import { PROTOCOL_VERSION, type PanelEvent } from '../../../../extension/src/protocol/events.ts'
import { connect, type Stage, stage } from './bridge-stage.ts'
import { callEvent } from '../../extension/support/samples.ts'

let current: Stage | undefined
afterEach(async () => {
  await current?.bridge.close()
  current = undefined
})

const call = (seq: number, args: string): PanelEvent => callEvent({ at: seq, agentId: 'wire:1', seq, tool: 'search', args, count: seq, nextThreshold: null })

describe('the bridge bounds', () => {
  it('closes a client that sends a message over maxPayload (1009), before reading it whole', async () => {
    current = await stage({ maxPayload: 1_024 })
    const client = connect(current.bridge.port)
    await client.next((m) => m.kind === 'hello')
    client.socket.send('x'.repeat(2_048))
    expect(await client.closed).toBe(1009)
  })

  it('closes a client that floods messages past its rate (1008)', async () => {
    current = await stage({ messagesPerSecond: 5 })
    const client = connect(current.bridge.port)
    await client.next((m) => m.kind === 'hello')
    for (let i = 0; i < 50; i++) client.socket.send(JSON.stringify({ v: PROTOCOL_VERSION, kind: 'nothing' }))
    expect(await client.closed).toBe(1008)
    expect(client.messages.filter((m) => m.kind === 'refused').length).toBeLessThanOrEqual(5)
  })

  it('refuses clients past maxClients (503)', async () => {
    current = await stage({ maxClients: 2 })
    const first = connect(current.bridge.port)
    const second = connect(current.bridge.port)
    expect([await first.opened, await second.opened]).toEqual(['open', 'open'])
    expect(await connect(current.bridge.port).opened).toBe(503)
  })

  it('lets go of a client that stops reading once its unsent bytes pass the limit', async () => {
    current = await stage({ maxBufferedBytes: 64 * 1024 })
    const reader = connect(current.bridge.port)
    const stalled = connect(current.bridge.port)
    await reader.next((m) => m.kind === 'hello')
    await stalled.next((m) => m.kind === 'hello')
    stalled.socket.pause()
    const args = 'a'.repeat(3_000)
    // Events keep coming until the bridge lets the stalled client go; the reader stays.
    await vi.waitFor(
      async () => {
        for (let i = 0; i < 200; i++) current!.hub.emit(call(i + 1, args))
        await new Promise((r) => setImmediate(r))
        expect(current!.bridge.clients).toBe(1)
      },
      { timeout: 10_000, interval: 10 },
    )
    expect(reader.socket.readyState).toBe(reader.socket.OPEN)
  })

  it('keeps its history within its byte budget, and tells a late panel that older events went', async () => {
    current = await stage({ historyBytes: 50_000 })
    const args = 'b'.repeat(1_000)
    for (let i = 1; i <= 500; i++) current.hub.emit(call(i, args))
    expect(current.bridge.historyBytes).toBeLessThanOrEqual(50_000)
    expect(current.bridge.historyBytes).toBeGreaterThan(40_000)
    const late = connect(current.bridge.port)
    const history = await late.next((m) => m.kind === 'events')
    expect(history).toMatchObject({ history: true, truncated: true })
    const events = history.kind === 'events' ? history.events : []
    expect(events.at(-1)).toMatchObject({ seq: 500 })
    expect(events.length).toBeLessThan(60)
  })
})
