// The panel, opened for a tab as a user opens it, attached to a Node process's bridge: the process's
// agent in a group of its own, its calls and reminders live; and a web page refused by the bridge.
// The process's guard here is the engine's own (createRepeatToolGuard) run in this test process and
// fed to the bridge through the event hub, as the register entry will feed it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createRepeatToolGuard, DEFAULT_CONFIG, type GuardConfig } from '../../../engine/index.ts'
import { fromEngineEvent } from '../../../extension/src/protocol/from-engine.ts'
import { type Bridge, startBridge } from '../../../node/bridge/bridge-server.ts'
import { createEventHub } from '../../../node/bridge/event-hub.ts'
import { type Browser, launch } from '../support/browser.ts'
import { routeHtml, serve, type TestServer } from '../support/server.ts'

let browser: Browser
let bridge: Bridge
let site: TestServer
const guard = createRepeatToolGuard()

beforeAll(async () => {
  let config: GuardConfig = DEFAULT_CONFIG
  const hub = createEventHub({
    current: () => config,
    apply(next) {
      config = guard.configure(next)
    },
  })
  guard.subscribe((event) => hub.emit(fromEngineEvent(event)))
  bridge = await startBridge({ source: hub.source, port: 0 })
  site = await serve([])
  routeHtml(site, '/', '<!doctype html><title>app</title><p>app</p>')
  browser = await launch()
}, 60_000)

afterAll(async () => {
  await browser?.close()
  await site?.close()
  await bridge?.close()
})

describe('the panel attached to a Node process', { timeout: 60_000 }, () => {
  it('lists the process agent in a group of its own, with its calls and reminders live', async () => {
    const page = await browser.context.newPage()
    await page.goto(site.origin)
    const panel = await browser.openPanel(await browser.tabId(page))
    await panel.goto(`${panel.url()}&bridge=${bridge.port}`)
    await expect.poll(() => bridge.clients, { timeout: 15_000 }).toBe(1)
    const agent = { name: 'weather agent' }
    for (let i = 0; i < 5; i++) await guard.postExecute({ agent, name: 'search', arguments: { q: 'weather' } })
    const badge = panel.getByTestId('agent-frame')
    await badge.first().waitFor({ timeout: 15_000 })
    expect(await badge.first().textContent()).toMatch(new RegExp(`^server · pid ${process.pid} · node ${process.versions.node.split('.')[0]}`))
    await expect.poll(() => panel.getByTestId('agent-count').first().textContent(), { timeout: 15_000 }).toBe('5')
    await expect.poll(() => panel.getByTestId('reminder-badge').count(), { timeout: 15_000 }).toBe(2)
  })

  it('refuses a web page that opens the bridge', async () => {
    const page = await browser.context.newPage()
    await page.goto(site.origin)
    const outcome = await page.evaluate(
      (port) =>
        new Promise<string>((done) => {
          const socket = new WebSocket(`ws://127.0.0.1:${port}`)
          socket.onopen = () => done('open')
          socket.onclose = () => done('closed')
        }),
      bridge.port,
    )
    expect(outcome).toBe('closed')
  })
})
