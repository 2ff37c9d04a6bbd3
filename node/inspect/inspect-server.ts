// `npx repeat-tool-guard inspect` (docs/node-bridge.md, "Without the extension"): serves the built panel
// as a page on http://127.0.0.1:8731 and relays its WebSocket to the bridges of the processes it
// was given. The relay is how the inspector page is let in safely: the page talks only to its own
// origin, which checks that Origin is exactly its own and Host a loopback name, and the relay opens
// the bridge as a client that is not a browser. A bridge keeps refusing every web origin, so no
// other local page (another dev server on any port) can reach a process through it.
import { readFile } from 'node:fs/promises'
import { createServer, type IncomingMessage } from 'node:http'
import { extname, join, normalize } from 'node:path'
import type { Duplex } from 'node:stream'
import { WebSocket, WebSocketServer } from 'ws'
import { isLoopbackHost } from '../bridge/upgrade-rules.ts'

const TYPES: Readonly<Record<string, string>> = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.css': 'text/css', '.png': 'image/png', '.svg': 'image/svg+xml' }

/** Bytes a relayed socket may have unsent, either way, before the relay drops both ends. */
const MAX_RELAY_BUFFER = 8 * 1024 * 1024

export interface InspectOptions {
  /** The built panel: inspect.html and its assets. */
  readonly assets: string
  readonly port: number
  /** The bridges' ports the page may reach; no other. */
  readonly bridges: readonly number[]
}

export interface Inspector {
  readonly port: number
  readonly url: string
  close(): Promise<void>
}

export function startInspector({ assets, port, bridges }: InspectOptions): Promise<Inspector> {
  const wss = new WebSocketServer({ noServer: true, maxPayload: 256 * 1024, perMessageDeflate: false })
  let own: string[] = []

  const server = createServer(async (request, response) => {
    if (!isLoopbackHost(request.headers.host ?? '')) {
      response.writeHead(403).end()
      return
    }
    const path = new URL(request.url ?? '/', 'http://127.0.0.1').pathname
    const file = normalize(join(assets, path === '/' ? 'inspect.html' : path))
    if (!file.startsWith(normalize(assets))) {
      response.writeHead(404).end()
      return
    }
    try {
      const body = await readFile(file)
      response.writeHead(200, { 'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream', 'Cache-Control': 'no-store' }).end(body)
    } catch {
      response.writeHead(404).end()
    }
  })

  server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy())
    const target = /^\/bridge\/(\d{1,5})$/.exec(request.url ?? '')
    const bridge = target ? Number(target[1]) : Number.NaN
    const origin = request.headers.origin
    if (!isLoopbackHost(request.headers.host ?? '') || origin === undefined || !own.includes(origin) || !bridges.includes(bridge)) {
      socket.end('HTTP/1.1 403 Forbidden\r\nConnection: close\r\n\r\n')
      return
    }
    wss.handleUpgrade(request, socket, head, (page) => relay(page, bridge))
  })

  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen({ port, host: '127.0.0.1', exclusive: true }, () => {
      server.off('error', reject)
      const address = server.address()
      const bound = typeof address === 'object' && address !== null ? address.port : port
      own = [`http://127.0.0.1:${bound}`, `http://localhost:${bound}`]
      resolve({
        port: bound,
        url: `http://127.0.0.1:${bound}/?bridge=${bridges.join(',')}`,
        close() {
          for (const client of wss.clients) client.terminate()
          return new Promise<void>((done) => server.close(() => done()))
        },
      })
    })
  })
}

/** Pipes the page's socket to the bridge's, text only, dropping both when either side lags. */
function relay(page: WebSocket, port: number): void {
  const bridge = new WebSocket(`ws://127.0.0.1:${port}`, { maxPayload: 8 * 1024 * 1024 })
  const early: string[] = []
  const end = () => {
    page.terminate()
    bridge.terminate()
  }
  const forward = (to: WebSocket, data: string) => {
    if (to.bufferedAmount > MAX_RELAY_BUFFER) return end()
    to.send(data)
  }
  bridge.on('open', () => {
    for (const data of early.splice(0)) forward(bridge, data)
  })
  bridge.on('message', (data, binary) => !binary && forward(page, data.toString()))
  page.on('message', (data, binary) => {
    if (binary) return
    if (bridge.readyState === WebSocket.OPEN) forward(bridge, data.toString())
    else if (early.length < 8) early.push(data.toString())
  })
  bridge.on('close', () => page.close())
  bridge.on('error', end)
  page.on('close', () => bridge.close())
  page.on('error', end)
}
