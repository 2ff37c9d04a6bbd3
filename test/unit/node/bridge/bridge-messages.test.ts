// What crosses the bridge: the process's events live and as history, and a panel's config, checked
// by the protocol's validators and the engine's resolveConfig before the process applies it.
import { afterEach, describe, expect, it } from 'vitest'
import { DEFAULT_CONFIG } from '../../../../engine/index.ts'
import type { PanelEvent } from '../../../../extension/src/protocol/events.ts'
import { PROTOCOL_VERSION } from '../../../../extension/src/protocol/events.ts'
import { checkBridgeToClient } from '../../../../extension/src/protocol/validate.ts'
import { connect, type Stage, stage } from './bridge-stage.ts'
import { callEvent } from '../../extension/support/samples.ts'

let current: Stage | undefined
afterEach(async () => {
  await current?.bridge.close()
  current = undefined
})

const agent: PanelEvent = { type: 'agent', at: 1, agent: { id: 'wire:1', kind: 'wire', label: 'weather bot', format: 'openai-chat', reach: 'fetch' } }
const call = (seq: number, count: number): PanelEvent => callEvent({ at: 2 + seq, agentId: 'wire:1', seq, tool: 'search', args: '{"q":"x"}', count })

describe('the bridge messages', () => {
  it('sends live events in batches the protocol validator accepts, and late panels the history and a snapshot', async () => {
    current = await stage()
    const early = connect(current.bridge.port)
    await early.next((m) => m.kind === 'hello')
    current.hub.emit(agent)
    current.hub.emit(call(1, 1))
    current.hub.emit(call(2, 2))
    const live = await early.next((m) => m.kind === 'events' && m.history !== true)
    expect(live).toEqual({ v: PROTOCOL_VERSION, kind: 'events', events: [agent, call(1, 1), call(2, 2)] })
    expect(checkBridgeToClient(live).ok).toBe(true)

    const late = connect(current.bridge.port)
    const hello = await late.next((m) => m.kind === 'hello')
    expect(checkBridgeToClient(hello).ok).toBe(true)
    expect(hello).toMatchObject({ snapshot: { agents: [{ id: 'wire:1', label: 'weather bot', tool: 'search', args: '{"q":"x"}', count: 2, nextThreshold: 3 }], config: DEFAULT_CONFIG } })
    expect(await late.next((m) => m.kind === 'events')).toEqual({ v: PROTOCOL_VERSION, kind: 'events', history: true, events: [agent, call(1, 1), call(2, 2)] })
  })

  it('applies a config the engine accepts and tells every panel; refuses others, with the reason', async () => {
    current = await stage()
    const editor = connect(current.bridge.port)
    const watcher = connect(current.bridge.port)
    await editor.next((m) => m.kind === 'hello')
    await watcher.next((m) => m.kind === 'hello')
    const config = { ...DEFAULT_CONFIG, thresholds: [2, 4] }
    editor.socket.send(JSON.stringify({ v: PROTOCOL_VERSION, kind: 'configure', config }))
    const told = await watcher.next((m) => m.kind === 'events' && m.events.some((e) => e.type === 'config'))
    expect(told).toMatchObject({ events: [{ type: 'config', config: { thresholds: [2, 4] } }] })
    expect(current.applied.map((c) => c.thresholds)).toEqual([[2, 4]])

    editor.socket.send(JSON.stringify({ v: PROTOCOL_VERSION, kind: 'configure', config: { ...DEFAULT_CONFIG, thresholds: [1] } }))
    expect(await editor.next((m) => m.kind === 'refused')).toMatchObject({ reason: expect.stringMatching(/^shape: \$\.config: thresholds\[0\] must be an integer >= 2/) })
    editor.socket.send(JSON.stringify({ v: 99, kind: 'configure', config }))
    expect(await editor.next((m) => m.kind === 'refused' && m.reason.startsWith('version'))).toBeDefined()
    editor.socket.send('not json')
    editor.socket.send(JSON.stringify({ v: PROTOCOL_VERSION, kind: 'configure', config, extra: 1 }))
    await editor.next((m) => m.kind === 'refused' && m.reason.includes('extra'))
    expect(current.applied).toHaveLength(1)
  })

  it('refuses a hello that is not a snapshot, and events of a shape the panel would not take', () => {
    const process = { pid: 1, node: 'v20.0.0', title: 'x' }
    expect(checkBridgeToClient({ v: PROTOCOL_VERSION, kind: 'hello', process, snapshot: agent })).toMatchObject({ ok: false, reason: 'shape' })
    expect(checkBridgeToClient({ v: PROTOCOL_VERSION, kind: 'events', events: [{ ...call(1, 1), count: -1 }] })).toMatchObject({ ok: false, reason: 'shape' })
    expect(checkBridgeToClient({ v: PROTOCOL_VERSION, kind: 'hello', process: { ...process, pid: 'x' }, snapshot: { type: 'snapshot', at: 1, agents: [], config: DEFAULT_CONFIG } })).toMatchObject({
      ok: false,
    })
    expect(checkBridgeToClient({ v: PROTOCOL_VERSION, kind: 'hello', process, snapshot: { type: 'snapshot', at: 1, agents: [], config: DEFAULT_CONFIG } })).toMatchObject({ ok: true })
  })
})
