// A local HTTP server for test pages: content scripts do not run on data: URLs.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import { readFile } from 'node:fs/promises'
import { extname, join, normalize } from 'node:path'
import type { AddressInfo } from 'node:net'

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
}

export type Route = (req: IncomingMessage, res: ServerResponse, body: Buffer) => boolean | Promise<boolean>

export interface TestServer {
  readonly origin: string
  /** Routes answer first; a route returns false to fall through to the static files. */
  route(route: Route): void
  close(): Promise<void>
}

/** Serves `roots` (static folders, first match wins) on 127.0.0.1 at a free port. */
export async function serve(roots: string[], options: { host?: string } = {}): Promise<TestServer> {
  const routes: Route[] = []
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = []
    for await (const chunk of req) chunks.push(chunk as Buffer)
    const body = Buffer.concat(chunks)
    try {
      for (const route of routes) if (await route(req, res, body)) return
      const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)
      const rel = normalize(path.endsWith('/') ? `${path}index.html` : path).replace(/^(\.\.[/\\])+/, '')
      for (const root of roots) {
        try {
          const data = await readFile(join(root, rel))
          res.writeHead(200, { 'content-type': TYPES[extname(rel)] ?? 'application/octet-stream', 'cache-control': 'no-store' })
          res.end(data)
          return
        } catch {
          // not in this root
        }
      }
      res.writeHead(404).end('not found')
    } catch (error) {
      if (!res.headersSent) res.writeHead(500)
      res.end(String(error))
    }
  })
  const host = options.host ?? '127.0.0.1'
  await new Promise<void>((ok) => server.listen(0, host, ok))
  const { port } = server.address() as AddressInfo
  return {
    origin: `http://${host}:${port}`,
    route: (r) => void routes.push(r),
    close: () => new Promise((ok) => server.close(() => ok())),
  }
}

/** Answers requests for `pathname` (whatever their query) with the HTML page `html`. */
export function routeHtml(server: TestServer, pathname: string, html: string): void {
  server.route((req, res) => {
    if (new URL(req.url ?? '/', 'http://x').pathname !== pathname) return false
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html)
    return true
  })
}
