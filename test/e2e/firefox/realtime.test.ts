// A realtime voice agent in Firefox ESR with the built Firefox extension: the same page on the real
// `@openai/agents-realtime` RealtimeSession over its WebSocket transport, against the same local
// realtime server as in Chromium (wire/realtime.test.ts), no page code of the guard. The server
// receives each reminder right after the tool result that made it due, and the panel, opened as a
// page, shows the session's agent with its reach.
import type { Page } from 'puppeteer-core'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { launchFirefox, type Firefox } from '../support/firefox.ts'
import { type Message, REMINDED_AFTER_RESULTS, twoAfterEachResult } from '../support/realtime-reminders.ts'
import { FINAL_TEXT, startRealtimeServer, type RealtimeServer } from '../support/realtime-server.ts'
import { serve, type TestServer } from '../support/server.ts'
import { type BuiltPages, buildAgentPages } from '../wire/pages/build.ts'

let pages: BuiltPages
let server: TestServer
let realtime: RealtimeServer
let firefox: Firefox
let page: Page

beforeAll(async () => {
  pages = await buildAgentPages('realtime')
  server = await serve([pages.dir])
  realtime = await startRealtimeServer()
  firefox = await launchFirefox()
  page = await firefox.newPage()
  await page.goto(`${server.origin}/realtime.html`, { waitUntil: 'domcontentloaded' })
  await page.waitForFunction(() => 'realtime' in window)
})

afterAll(async () => {
  await firefox?.close()
  await realtime?.close()
  await server?.close()
  await pages?.remove()
})

test('the server receives the gentle reminder after the 3rd result and the detailed one after the 5th; the panel shows the session', async () => {
  const url = `${realtime.origin}/v1/realtime?model=gpt-realtime`
  const done = await page.evaluate((address) => (window as unknown as { realtime: { openai(url: string): Promise<{ turns: string[]; tools: number }> } }).realtime.openai(address), url)
  expect([done.tools, done.turns.at(-1)]).toEqual([6, FINAL_TEXT])
  const received = realtime.connections.at(-1)!.received.map((text) => JSON.parse(text) as Message)
  expect(twoAfterEachResult(received)).toEqual(REMINDED_AFTER_RESULTS)

  const panel = await firefox.openPanel(await firefox.tabId(page))
  const reach = () => panel.$$eval('[data-testid="agent-row"] [data-testid="agent-reach"]', (els) => els.map((e) => e.textContent))
  await expect.poll(reach, { interval: 200 }).toEqual(['realtime-ws'])
  await panel.close()
})
