// Pages for the origin the popup and the panel switch. `/forging` is an ordinary page; `/sandboxed`
// the same page served with `Content-Security-Policy: sandbox allow-scripts`, so its origin is
// opaque. No page script can reach the relay (docs/security.md, "The channel between the page script
// and the relay"), so the page-load event naming another site is sent from the tab's relay world,
// as a compromised relay would: the worst a tab can send, whose origin still comes from the browser.
import type { Page } from 'playwright-core'
import { PROTOCOL_VERSION } from '../../../extension/src/protocol/events.ts'
import { CONTENT_PORT } from '../../../extension/src/protocol/messages.ts'
import type { Browser } from './browser.ts'
import { evaluateInRelayWorld } from './relay-world.ts'
import type { TestServer } from './server.ts'

export const FORGED_ADDRESS = 'https://bank.example/accounts'

const FORGING_PAGE = '<!doctype html><title>forging</title>'

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

/**
 * Sends, from the relay world of `page`'s top frame, a batch whose address and page-load event both
 * name FORGED_ADDRESS; resolves once the service worker acknowledged it, so it was counted.
 */
export function forgePageLoad(browser: Browser, page: Page): Promise<void> {
  return evaluateInRelayWorld(
    browser,
    page,
    ({ name, v, url }) =>
      new Promise<void>((acknowledged) => {
        const port = chrome.runtime.connect({ name })
        port.onMessage.addListener((message: { kind?: string }) => {
          if (message.kind === 'ack') acknowledged()
        })
        port.postMessage({ v, kind: 'events', url, events: [{ type: 'page-load', at: Date.now(), url }], stream: 'forged', seq: 1 })
      }),
    { name: CONTENT_PORT, v: PROTOCOL_VERSION, url: FORGED_ADDRESS },
  )
}
