// Runs code in the content relay's isolated world of a page's top frame, over CDP: what the tab
// itself could send the service worker if its relay were compromised. A page cannot do this (its
// scripts reach the relay by no path: docs/security.md, "The channel between the page script and
// the relay"); a test that floods the service worker and the panel from a tab does it here.
import type { Page } from 'playwright-core'
import type { Browser } from './browser.ts'

interface ExecutionContext {
  readonly id: number
  readonly origin: string
  readonly auxData?: { readonly type?: string; readonly isDefault?: boolean }
}

/** Evaluates `fn(arg)` in the relay's world of `page`'s top frame; resolves to what it returns (JSON). */
export async function evaluateInRelayWorld<A, R>(browser: Browser, page: Page, fn: (arg: A) => R | Promise<R>, arg: A): Promise<R> {
  const cdp = await browser.context.newCDPSession(page)
  try {
    const contexts: ExecutionContext[] = []
    cdp.on('Runtime.executionContextCreated', ({ context }) => void contexts.push(context as ExecutionContext))
    // Enabling reports every context that exists already.
    await cdp.send('Runtime.enable')
    const relay = contexts.find((c) => c.auxData?.type === 'isolated' && c.origin.startsWith(`chrome-extension://${browser.extensionId}`))
    if (!relay) throw new Error(`no relay world in ${page.url()}`)
    const { result, exceptionDetails } = await cdp.send('Runtime.evaluate', {
      expression: `(${fn.toString()})(${JSON.stringify(arg)})`,
      contextId: relay.id,
      awaitPromise: true,
      returnByValue: true,
    })
    if (exceptionDetails) throw new Error(`in the relay world: ${exceptionDetails.exception?.description ?? exceptionDetails.text}`)
    return result.value as R
  } finally {
    await cdp.detach()
  }
}
