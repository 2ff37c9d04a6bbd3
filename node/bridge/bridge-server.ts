// The bridge (docs/node-bridge.md, "The bridge"): serves a process's panel events on
// ws://127.0.0.1:<port> to the panels that attach, and applies the config they send. Loopback
// only, refusing web origins and foreign Host names (upgrade-rules.ts), within stated bounds
// (bridge-limits.ts), and never what keeps the process alive: the server and every socket are
// unref'd, so the process exits when its own work is done.
import { createServer, type IncomingMessage } from 'node:http'
import type { Duplex } from 'node:stream'
import { WebSocket, WebSocketServer } from 'ws'
import { resolveConfig } from '../../engine/index.ts'
import { errorText } from '../../engine/safe-reading.ts'
import type { BridgeToClient, ProcessInfo } from '../../extension/src/protocol/bridge-messages.ts'
import { LIMITS, type PanelEvent, PROTOCOL_VERSION } from '../../extension/src/protocol/events.ts'
import { checkClientToBridge } from '../../extension/src/protocol/validate.ts'
import { type BridgeLimits, DEFAULT_BRIDGE_LIMITS } from './bridge-limits.ts'
import type { BridgeSource } from './bridge-source.ts'
import { processInfo } from './process-info.ts'
import { RecentEvents } from './recent-events.ts'
import { upgradeVerdict } from './upgrade-rules.ts'

export interface BridgeOptions {
  readonly source: BridgeSource
  /** 0 asks the system for a free port (tests); the register entry passes 8730 or the user's. */
  readonly port: number
  readonly limits?: Partial<BridgeLimits>
  readonly info?: ProcessInfo
}

export interface Bridge {
  /** The port it listens on, 127.0.0.1 only. */
  readonly port: number
  /** Clients attached now. */
  readonly clients: number
  /** Bytes of recent events held for late panels. */
  readonly historyBytes: number
  close(): Promise<void>
}

function refuse(socket: Duplex, status: string, reason: string): void {
  socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Type: text/plain\r\n\r\n${reason}\n`)
}

export function startBridge({ source, port, limits: given = {}, info = processInfo() }: BridgeOptions): Promise<Bridge> {
  const limits = { ...DEFAULT_BRIDGE_LIMITS, ...given }
  const recent = new RecentEvents(limits.historyBytes)
  const wss = new WebSocketServer({ noServer: true, maxPayload: limits.maxPayload, perMessageDeflate: false, clientTracking: true })
  let pending: PanelEvent[] = []
  let flushQueued = false

  const send = (client: WebSocket, message: BridgeToClient): void => {
    if (client.readyState !== WebSocket.OPEN) return
    // A client that does not read its messages is let go, never buffered for without end.
    if (client.bufferedAmount > limits.maxBufferedBytes) {
      client.terminate()
      return
    }
    client.send(JSON.stringify(message))
  }

  const flush = (): void => {
    flushQueued = false
    const events = pending
    pending = []
    for (let i = 0; i < events.length; i += LIMITS.eventsPerBatch) {
      const message: BridgeToClient = { v: PROTOCOL_VERSION, kind: 'events', events: events.slice(i, i + LIMITS.eventsPerBatch) }
      for (const client of wss.clients) send(client, message)
    }
  }

  const unsubscribe = source.subscribe((event) => {
    recent.push(event)
    if (wss.clients.size === 0) return
    pending.push(event)
    // One message per burst of events; a burst past a batch's cap is split at flush.
    if (!flushQueued) {
      flushQueued = true
      queueMicrotask(flush)
    }
  })

  function attach(client: WebSocket): void {
    send(client, { v: PROTOCOL_VERSION, kind: 'hello', process: info, snapshot: source.snapshot() })
    recent.batches(LIMITS.eventsPerBatch).forEach((events, i) => {
      const truncated = i === 0 && recent.truncated ? { truncated: true as const } : {}
      send(client, { v: PROTOCOL_VERSION, kind: 'events', events, history: true, ...truncated })
    })
    let windowStart = Date.now()
    let inWindow = 0
    client.on('message', (data, isBinary) => {
      const now = Date.now()
      if (now - windowStart >= 1_000) {
        windowStart = now
        inWindow = 0
      }
      if (++inWindow > limits.messagesPerSecond) {
        client.close(1008, 'too many messages')
        return
      }
      receive(client, isBinary ? undefined : data.toString())
    })
    client.on('error', () => client.terminate())
  }

  function receive(client: WebSocket, text: string | undefined): void {
    let message: unknown
    try {
      message = text === undefined ? undefined : JSON.parse(text)
    } catch {
      message = undefined
    }
    const checked = checkClientToBridge(message)
    if (!checked.ok) {
      send(client, { v: PROTOCOL_VERSION, kind: 'refused', reason: `${checked.reason}: ${checked.detail}`.slice(0, LIMITS.text) })
      return
    }
    try {
      source.configure(resolveConfig(checked.value.config))
    } catch (error) {
      send(client, { v: PROTOCOL_VERSION, kind: 'refused', reason: errorText(error).slice(0, LIMITS.text) })
    }
  }

  const server = createServer((_request, response) => {
    response.writeHead(426, { 'Content-Type': 'text/plain', Connection: 'close' })
    response.end('repeat-tool-guard bridge: WebSocket only\n')
  })
  server.on('connection', (socket) => socket.unref())
  server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy())
    const verdict = upgradeVerdict(request.headers)
    if (!verdict.ok) return refuse(socket, '403 Forbidden', verdict.reason)
    if (wss.clients.size >= limits.maxClients) return refuse(socket, '503 Service Unavailable', 'too many clients')
    wss.handleUpgrade(request, socket, head, (client) => attach(client))
  })
  server.headersTimeout = 5_000
  server.requestTimeout = 5_000
  server.maxHeadersCount = 64

  return new Promise((resolve, reject) => {
    server.once('error', reject)
    // Loopback only: nothing of the process is reachable from another machine.
    server.listen({ port, host: '127.0.0.1', exclusive: true }, () => {
      server.off('error', reject)
      server.unref()
      const address = server.address()
      const bound = typeof address === 'object' && address !== null ? address.port : port
      resolve({
        port: bound,
        get clients() {
          return wss.clients.size
        },
        get historyBytes() {
          return recent.bytes
        },
        close() {
          unsubscribe()
          for (const client of wss.clients) client.terminate()
          wss.close()
          return new Promise<void>((done) => server.close(() => done()))
        },
      })
    })
  })
}
