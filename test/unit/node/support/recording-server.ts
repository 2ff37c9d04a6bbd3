// A local model server for the Node entry's unit tests: node:http on 127.0.0.1, answering every
// request with `reply` (a JSON object by default) and recording each request as it arrived.
import { createServer, type IncomingHttpHeaders } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface Received {
  readonly method: string
  readonly path: string
  readonly headers: IncomingHttpHeaders
  readonly body: string
}

export interface RecordingServer {
  readonly origin: string
  readonly received: Received[]
  close(): Promise<void>
}

export async function recordingServer(reply: (received: Received) => { type: string; body: string } = () => ({ type: 'application/json', body: '{"ok":true}' })): Promise<RecordingServer> {
  const received: Received[] = []
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      const got = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') }
      received.push(got)
      const { type, body } = reply(got)
      res.writeHead(200, { 'content-type': type }).end(body)
    })
  })
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok))
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    close: () =>
      new Promise((ok) => {
        server.close(() => ok())
        server.closeAllConnections()
      }),
  }
}
