// An empty page at `/blank` for tests that drive fetch from page.evaluate: the extension's
// scripts only run on http(s) pages.
import type { TestServer } from '../support/server.ts'

export function routeBlankPage(server: TestServer): void {
  server.route((req, res) => {
    if (req.method !== 'GET' || new URL(req.url ?? '/', 'http://x').pathname !== '/blank') return false
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end('<!doctype html><title>blank</title>')
    return true
  })
}
