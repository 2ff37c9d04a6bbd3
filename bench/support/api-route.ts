// What a bench page's requests that are not LLM requests are answered with: `/api/...` gets a small
// JSON response, never cached, so every request goes through the network stack.
import type { Route } from '../../test/e2e/support/server.ts'

export const apiRoute: Route = (req, res) => {
  if (!req.url?.startsWith('/api/')) return false
  res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' }).end('{"ok":true}')
  return true
}
