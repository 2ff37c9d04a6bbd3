// Chromium streams a request body (`body: ReadableStream`, `duplex: "half"`) only over HTTP/2, so
// this test server speaks HTTPS with HTTP/2, using a self-signed test certificate the browser is
// told to accept. It serves an empty page and records every upload byte for byte.
import { readFileSync } from 'node:fs'
import { createSecureServer, type ServerHttp2Session } from 'node:http2'
import type { AddressInfo } from 'node:net'
import { resolve } from 'node:path'

export interface Upload {
  readonly path: string
  readonly httpVersion: string
  readonly headers: Readonly<Record<string, string | string[] | undefined>>
  readonly body: Buffer
}

export interface UploadServer {
  readonly origin: string
  readonly uploads: Upload[]
  close(): Promise<void>
}

const TLS = resolve(import.meta.dirname, '../../fixtures/wire/tls')

export async function serveUploads(): Promise<UploadServer> {
  const uploads: Upload[] = []
  const server = createSecureServer({ allowHTTP1: true, key: readFileSync(resolve(TLS, 'key.pem')), cert: readFileSync(resolve(TLS, 'cert.pem')) }, async (req, res) => {
    if (req.method === 'GET') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end('<!doctype html><title>uploads</title>')
      return
    }
    const chunks: Buffer[] = []
    for await (const chunk of req) chunks.push(chunk as Buffer)
    uploads.push({ path: req.url, httpVersion: req.httpVersion, headers: { ...req.headers }, body: Buffer.concat(chunks) })
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}')
  })
  // The browser keeps its HTTP/2 sessions open: closing ends them, or close() would wait on them.
  const sessions = new Set<ServerHttp2Session>()
  server.on('session', (session: ServerHttp2Session) => {
    sessions.add(session)
    session.on('close', () => sessions.delete(session))
  })
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok))
  return {
    origin: `https://127.0.0.1:${(server.address() as AddressInfo).port}`,
    uploads,
    close: () =>
      new Promise((ok) => {
        server.close(() => ok())
        for (const session of sessions) session.destroy()
      }),
  }
}
