// A realtime voice agent over WebRTC in Firefox ESR with the built Firefox extension: the same page
// as in Chromium (wire/realtime-webrtc.test.ts), the real `@openai/agents-realtime` RealtimeSession
// over its OpenAIRealtimeWebRTC transport, against the same calls endpoint and werift peer, no page
// code of the guard. Firefox headless gathers no loopback candidate, so the peer takes its checks on
// the machine's own addresses too (webrtc-server.ts says why). The peer receives each reminder right after the
// tool result that made it due, and the panel, opened as a page, shows the session's agent with its
// reach; a channel of another label carries its messages byte for byte.
import type { Page } from 'puppeteer-core'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { launchFirefox, type Firefox } from '../support/firefox.ts'
import { type Message, REMINDED_AFTER_RESULTS, twoAfterEachResult } from '../support/realtime-reminders.ts'
import { FINAL_TEXT } from '../support/realtime-server.ts'
import { serve, type TestServer } from '../support/server.ts'
import { CALLS_PATH, createWebRtcCalls } from '../support/webrtc-server.ts'
import { type BuiltPages, buildAgentPages } from '../wire/pages/build.ts'

interface WebRtcWindow {
  realtimeWebrtc: {
    openai(callsUrl: string): Promise<{ turns: string[]; tools: number }>
    channel(callsUrl: string, label: string, texts: string[], besideSession?: boolean): Promise<string[]>
  }
}

const calls = createWebRtcCalls({ interfaces: 'all' })
let pages: BuiltPages
let server: TestServer
let firefox: Firefox
let page: Page

beforeAll(async () => {
  pages = await buildAgentPages('realtime-webrtc')
  server = await serve([pages.dir])
  server.route(calls.route)
  firefox = await launchFirefox()
  page = await firefox.newPage()
  await page.goto(`${server.origin}/realtime-webrtc.html`, { waitUntil: 'domcontentloaded' })
  await page.waitForFunction(() => 'realtimeWebrtc' in window)
})

afterAll(async () => {
  await firefox?.close()
  await calls.close()
  await server?.close()
  await pages?.remove()
})

test('the peer receives the gentle reminder after the 3rd result and the detailed one after the 5th; the panel shows the session', async () => {
  const done = await page.evaluate((url) => (window as unknown as WebRtcWindow).realtimeWebrtc.openai(url), `${server.origin}${CALLS_PATH}`)
  expect([done.tools, done.turns.at(-1)]).toEqual([6, FINAL_TEXT])
  const received = calls.channels
    .filter((c) => c.label === 'oai-events')
    .at(-1)!
    .received.map((text) => JSON.parse(text) as Message)
  expect(twoAfterEachResult(received)).toEqual(REMINDED_AFTER_RESULTS)

  const panel = await firefox.openPanel(await firefox.tabId(page))
  const reach = () => panel.$$eval('[data-testid="agent-row"] [data-testid="agent-reach"]', (els) => els.map((e) => e.textContent))
  await expect.poll(reach, { interval: 200 }).toEqual(['realtime-webrtc'])
  await panel.close()
})

test('a data channel of another label, beside a session, carries its messages byte for byte', async () => {
  const fresh = await firefox.newPage()
  await fresh.goto(`${server.origin}/realtime-webrtc.html`, { waitUntil: 'domcontentloaded' })
  await fresh.waitForFunction(() => 'realtimeWebrtc' in window)
  const texts = ['hello', JSON.stringify({ type: 'conversation.item.create', item: { type: 'function_call_output', call_id: 'c1', output: 'x' } })]
  const echoed = await fresh.evaluate(({ url, texts }) => (window as unknown as WebRtcWindow).realtimeWebrtc.channel(url, 'chat', texts, true), { url: `${server.origin}${CALLS_PATH}`, texts })
  expect(echoed).toEqual([...texts, '<3 bytes>'])
  expect(calls.channels.filter((c) => c.label === 'chat').at(-1)!.received).toEqual([...texts, '<binary 3 bytes>'])
  await fresh.close()
})
