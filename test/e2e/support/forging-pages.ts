// Pages that name another site as their own: each posts, as the page script would, a page-load
// event for https://bank.example/accounts. `/forging` is an ordinary page; `/sandboxed` the same
// page served with `Content-Security-Policy: sandbox allow-scripts`, so its origin is opaque.
import { PROTOCOL_VERSION } from '../../../extension/src/protocol/events.ts'
import type { TestServer } from './server.ts'

export const FORGED_ADDRESS = 'https://bank.example/accounts'

const FORGING_PAGE = `<!doctype html><title>forging</title><script>
  postMessage({ source: 'repeat-tool-guard/page', v: ${PROTOCOL_VERSION}, kind: 'events', events: [{ type: 'page-load', at: Date.now(), url: '${FORGED_ADDRESS}' }] }, '*')
</script>`

/** What the popup and the panel say of a sandboxed page's setting. */
export const SANDBOXED_REASON = 'This page is sandboxed (opaque origin): it always runs observe.'

export function routeForgingPages(server: TestServer): void {
  server.route((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname
    if (path !== '/forging' && path !== '/sandboxed') return false
    const sandbox = path === '/sandboxed' ? { 'content-security-policy': 'sandbox allow-scripts' } : {}
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', ...sandbox }).end(FORGING_PAGE)
    return true
  })
}
