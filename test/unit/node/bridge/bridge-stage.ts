// A bridge on a free port fed by an event hub, and real `ws` clients with the headers a test forges.
import { WebSocket } from 'ws'
import { DEFAULT_CONFIG, type GuardConfig } from '../../../../engine/index.ts'
import type { BridgeToClient } from '../../../../extension/src/protocol/bridge-messages.ts'
import type { BridgeLimits } from '../../../../node/bridge/bridge-limits.ts'
import { type Bridge, startBridge } from '../../../../node/bridge/bridge-server.ts'
import { createEventHub, type EventHub } from '../../../../node/bridge/event-hub.ts'

export interface Stage {
  readonly bridge: Bridge
  readonly hub: EventHub
  /** Every config the process applied, in order. */
  readonly applied: GuardConfig[]
}

export async function stage(limits: Partial<BridgeLimits> = {}): Promise<Stage> {
  const applied: GuardConfig[] = []
  let config = DEFAULT_CONFIG
  const hub = createEventHub({
    current: () => config,
    apply(next) {
      config = next
      applied.push(next)
    },
  })
  const bridge = await startBridge({ source: hub.source, port: 0, limits, info: { pid: 4242, node: 'v20.0.0', title: 'server.js' } })
  return { bridge, hub, applied }
}

/** A client that records every message, and how its opening ended. */
export interface Client {
  readonly socket: WebSocket
  readonly messages: BridgeToClient[]
  /** Resolves with `open`, or the HTTP status that refused the upgrade. */
  readonly opened: Promise<'open' | number>
  /** Resolves with the close code. */
  readonly closed: Promise<number>
  /** Resolves with the first message `match` accepts. */
  next(match: (message: BridgeToClient) => boolean): Promise<BridgeToClient>
}

export function connect(port: number, headers: Record<string, string> = {}, host = '127.0.0.1'): Client {
  const socket = new WebSocket(`ws://${host}:${port}`, { headers })
  const messages: BridgeToClient[] = []
  const waiting: { match: (m: BridgeToClient) => boolean; done: (m: BridgeToClient) => void }[] = []
  socket.on('message', (data) => {
    const message = JSON.parse(data.toString()) as BridgeToClient
    messages.push(message)
    for (const w of [...waiting]) {
      if (!w.match(message)) continue
      waiting.splice(waiting.indexOf(w), 1)
      w.done(message)
    }
  })
  const opened = new Promise<'open' | number>((done) => {
    socket.once('open', () => done('open'))
    socket.once('unexpected-response', (_request, response) => {
      done(response.statusCode ?? 0)
      socket.terminate()
    })
    socket.once('error', () => done(-1))
  })
  const closed = new Promise<number>((done) => socket.once('close', (code) => done(code)))
  return {
    socket,
    messages,
    opened,
    closed,
    next(match) {
      const found = messages.find(match)
      if (found) return Promise.resolve(found)
      return new Promise((done) => waiting.push({ match, done }))
    },
  }
}
