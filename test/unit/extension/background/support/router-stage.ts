// The router under test, made afresh before each test of a file that calls `freshRouterEachTest`,
// and the ports and batches the router tests send it. `clock` and `router` are live bindings: a
// test that needs a router with other options makes one and hands it to `useRouter`.
import { beforeEach } from 'vitest'
import { createRouter, type Router } from '../../../../../extension/src/background/router.ts'
import { CONTENT_PORT, PANEL_PORT } from '../../../../../extension/src/protocol/messages.ts'
import { FakeClock } from '../../support/fake-clock.ts'
import { FakeContentPort, FakePort } from '../../support/fake-port.ts'
import { call, contentReport, v } from '../../support/samples.ts'

export const ORIGIN = 'chrome-extension://abcdefghijklmnop/'
export const PAGE_URL = 'http://127.0.0.1/agent.html'
export const PAGE_ORIGIN = 'http://127.0.0.1'

export let clock: FakeClock
export let router: Router

export function freshRouterEachTest(): void {
  beforeEach(() => {
    clock = new FakeClock()
    router = createRouter({ extensionOrigin: ORIGIN, later: clock.later, bufferLimits: { maxEvents: 3, maxBytes: 1e9 } })
  })
}

/** Puts `next` under test in place of the router made before the test. */
export function useRouter(next: Router): void {
  router = next
}

export const content = (tabId: number, frameId = 0, sender: { origin?: string; url?: string } = { origin: PAGE_ORIGIN, url: PAGE_URL }): FakeContentPort => {
  const port = new FakeContentPort(CONTENT_PORT, { tab: { id: tabId }, frameId, ...sender })
  router.connect(port)
  return port
}
export const panel = (tabId?: number) => {
  const port = new FakePort(PANEL_PORT, { url: `${ORIGIN}panel.html?tabId=${tabId}` })
  router.connect(port)
  if (tabId !== undefined) port.receive({ v, kind: 'subscribe', tabId })
  return port
}
export const events = (tool: string, url = PAGE_URL) => contentReport([call(tool)], url)
