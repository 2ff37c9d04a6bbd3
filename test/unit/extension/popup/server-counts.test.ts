// The popup's count of a Node process's agents and reminders (popup/server-counts.ts), against a real
// bridge fed by a real guard, as a registered process feeds it: from the hello and the history the
// process kept, then live, and the process's going away.
import { afterEach, describe, expect, it, vi } from 'vitest'
import { WebSocket } from 'ws'
import { createRepeatToolGuard } from '../../../../engine/index.ts'
import { countServers } from '../../../../extension/src/popup/server-counts.ts'
import { fromEngineEvent } from '../../../../extension/src/protocol/from-engine.ts'
import { stage } from '../../node/bridge/bridge-stage.ts'

// Node 20 has no WebSocket of its own: the `ws` client stands in for the browser's.
afterEach(() => void vi.unstubAllGlobals())

async function guardedProcess() {
  const { bridge, hub } = await stage()
  const guard = createRepeatToolGuard()
  guard.subscribe((event) => hub.emit(fromEngineEvent(event)))
  const agents = new Map<string, { name: string }>()
  const loop = async (name: string, times: number) => {
    // One agent is one object, as an app keeps it across its calls.
    const agent = agents.get(name) ?? { name }
    agents.set(name, agent)
    for (let i = 0; i < times; i++) await guard.postExecute({ agent, name: 'grep', arguments: { q: name } })
  }
  return { bridge, loop }
}

const counted = (agents: number, reminders: number, gone = false) => ({ label: 'server · pid 4242 · node 20 · server.js', agents, reminders, observed: 0, truncated: false, gone })

describe('the popup’s count of a Node process', () => {
  it('counts the agents and reminders the process ran before the popup came, then live, then tells it gone', async () => {
    vi.stubGlobal('WebSocket', WebSocket)
    const { bridge, loop } = await guardedProcess()
    await loop('alpha', 5)
    let changes = 0
    const counts = countServers([bridge.port, bridge.port], () => changes++)
    try {
      await vi.waitFor(() => expect(counts.counts()).toEqual([{ port: bridge.port, ...counted(1, 2) }]))
      const before = changes
      await loop('beta', 3)
      await vi.waitFor(() => expect(counts.counts()).toEqual([{ port: bridge.port, ...counted(2, 3) }]))
      expect(changes).toBeGreaterThan(before)
      await bridge.close()
      await vi.waitFor(() => expect(counts.counts()).toEqual([{ port: bridge.port, ...counted(2, 3, true) }]))
    } finally {
      counts.close()
    }
  })

  it('counts nothing on a port where no process answers', async () => {
    vi.stubGlobal('WebSocket', WebSocket)
    const { bridge, loop } = await guardedProcess()
    await loop('alpha', 3)
    const closedPort = bridge.port
    await bridge.close()
    const other = await guardedProcess()
    await other.loop('gamma', 3)
    const counts = countServers([closedPort, other.bridge.port], () => {})
    try {
      // The process that answers is counted; the port where none does is left out, not counted as zero.
      await vi.waitFor(() => expect(counts.counts()).toEqual([{ port: other.bridge.port, ...counted(1, 1) }]))
    } finally {
      counts.close()
      await other.bridge.close()
    }
  })
})
