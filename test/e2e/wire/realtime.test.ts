// Realtime voice agents, seen from the page (docs/zero-code.md, "Realtime sessions"): the real
// Agents SDK `RealtimeSession` over its WebSocket transport and `@google/genai`'s `live.connect`,
// bundled into a page with no code of the guard's, in Chromium with the built extension, against a
// local server speaking each protocol. The server receives each reminder right after the tool
// result that made it due, once; a WebSocket that is no realtime session is left alone.
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { reminderTurn } from '../../fixtures/realtime/gemini-messages.ts'
import { reminderItem } from '../../fixtures/realtime/openai-events.ts'
import { GENTLE } from '../../fixtures/wire/reminders.ts'
import { watchOnDemandHalf } from '../support/on-demand-half.ts'
import { expectWireCounts, openReportingPage, reportedEvents, wireCount, wireOf } from '../support/page-events.ts'
import { afterEachResult, DETAILED, type Message, REMINDED_AFTER_RESULTS, twoAfterEachResult } from '../support/realtime-reminders.ts'
import { FINAL_TEXT, startRealtimeServer, type RealtimeServer } from '../support/realtime-server.ts'
import { useStage } from '../support/stage.ts'
import { buildAgentPages } from './pages/build.ts'

let realtime: RealtimeServer
// Any *.test host name is this machine: an origin that is not local, observed by default.
const stage = useStage({ pages: () => buildAgentPages('realtime'), launch: { args: ['--host-resolver-rules=MAP *.test 127.0.0.1'] } })
beforeAll(async () => void (realtime = await startRealtimeServer()))
afterAll(() => realtime.close())

interface RealtimeWindow {
  realtime: {
    openai(url: string): Promise<{ turns: string[]; tools: number }>
    gemini(baseUrl: string): Promise<{ texts: string[]; tools: number }>
    chat(url: string, texts: string[]): Promise<string[]>
  }
}

/** What the connection whose path has `part` received, parsed; the newest such connection. */
const receivedOn = (part: string) =>
  realtime.connections
    .filter((c) => c.path.includes(part))
    .at(-1)!
    .received.map((text) => JSON.parse(text) as Message)

async function openAiRun(page: Page) {
  const url = `${realtime.origin}/v1/realtime?model=gpt-realtime`
  const done = await page.evaluate((address) => (window as unknown as RealtimeWindow).realtime.openai(address), url)
  expect(done.tools).toBe(6)
  expect(done.turns.at(-1)).toBe(FINAL_TEXT)
  return receivedOn('/v1/realtime')
}

describe("the Agents SDK's RealtimeSession over WebSocket", () => {
  test('the server receives the gentle reminder after the 3rd result and the detailed one after the 5th, each before its response.create, once', async () => {
    const page = await openReportingPage(stage.browser, `${stage.server.origin}/realtime.html`, 'realtime')
    const received = await openAiRun(page)
    expect(realtime.connections.at(-1)!.protocol).toBe('realtime')
    expect(twoAfterEachResult(received)).toEqual(REMINDED_AFTER_RESULTS)
    const reminders = received.filter((m) => JSON.stringify(m).includes('"role":"user"') && (JSON.stringify(m).includes('You are repeating') || JSON.stringify(m).includes('Repeated tool call')))
    expect(reminders).toEqual([reminderItem(GENTLE), reminderItem(DETAILED)])

    await expectWireCounts(page, { reminders: 2, calls: 6 })
    const wire = wireOf(await reportedEvents(page))
    expect(wire.filter((e) => e.type === 'agent').map((e) => e.type === 'agent' && [e.agent.reach, e.agent.format, e.agent.label])).toEqual([
      ['realtime-ws', 'openai-realtime', 'You are a voice agent that reads files.'],
    ])
    expect(wire.flatMap((e) => (e.type === 'reminder' ? [[e.seq, e.text, e.withheld]] : []))).toEqual([
      [3, GENTLE, undefined],
      [5, DETAILED, undefined],
    ])
  })

  test('on an origin that is observed, nothing is sent and the panel shows where each reminder would go', async () => {
    const port = new URL(stage.server.origin).port
    const page = await openReportingPage(stage.browser, `http://agent.test:${port}/realtime.html`, 'realtime')
    const received = await openAiRun(page)
    expect(afterEachResult(received).map((messages) => messages[0]?.type)).toEqual(Array.from({ length: 6 }, () => 'response.create'))
    await expect.poll(() => wireCount(page, 'reminder')).toBe(2)
    const reminders = wireOf(await reportedEvents(page)).flatMap((e) => (e.type === 'reminder' ? [[e.seq, e.withheld, e.placement?.startsWith('conversation.item.create after call_')]] : []))
    expect(reminders).toEqual([
      [3, 'observe', true],
      [5, 'observe', true],
    ])
  })
})

describe("@google/genai's live.connect", () => {
  test('the Live server receives a reminder turn right after the 3rd and the 5th tool responses, once each', async () => {
    const page = await openReportingPage(stage.browser, `${stage.server.origin}/realtime.html`, 'realtime')
    const done = await page.evaluate((baseUrl) => (window as unknown as RealtimeWindow).realtime.gemini(baseUrl), realtime.origin.replace('ws:', 'http:'))
    expect(done.tools).toBe(6)
    expect(done.texts).toEqual([FINAL_TEXT])
    const received = receivedOn('BidiGenerateContent')
    const after = afterEachResult(received, (m) => 'toolResponse' in m).map((messages) => messages.filter((m) => 'clientContent' in m))
    expect(after).toEqual([[], [], [reminderTurn(GENTLE)], [], [reminderTurn(DETAILED)], []])
    await expectWireCounts(page, { reminders: 2, calls: 6 })
    const wire = wireOf(await reportedEvents(page))
    expect(wire.filter((e) => e.type === 'agent').map((e) => e.type === 'agent' && [e.agent.reach, e.agent.format, e.agent.label])).toEqual([
      ['gemini-live', 'gemini-live', 'You are a voice agent that reads files.'],
    ])
  })
})

describe('a WebSocket that is no realtime session', () => {
  test('goes out and comes back byte for byte, and the on-demand half never starts', async () => {
    const { page, runs } = await watchOnDemandHalf(stage.browser)
    await page.goto(`${stage.server.origin}/realtime.html`)
    await page.waitForFunction(() => 'realtime' in window)
    // Texts that look like realtime events: on a chat socket they are only text.
    const texts = [
      'hello',
      JSON.stringify({ type: 'session.created', session: {} }),
      JSON.stringify({ type: 'conversation.item.create', item: { type: 'function_call_output', call_id: 'c1', output: 'x' } }),
    ]
    const echoed = await page.evaluate(({ url, texts }) => (window as unknown as RealtimeWindow).realtime.chat(url, texts), { url: `${realtime.origin}/chat`, texts })
    expect(echoed).toEqual([...texts, '<3 bytes>'])
    expect(realtime.connections.filter((c) => c.path === '/chat').at(-1)!.received).toEqual([...texts, '<binary 3 bytes>'])
    expect(await runs()).toBe(0)
    expect(await page.evaluate(() => [WebSocket.name, WebSocket.length, String(WebSocket), new WebSocket('ws://127.0.0.1:9/x').constructor === WebSocket, String(WebSocket.prototype.send)])).toEqual([
      'WebSocket',
      1,
      'function WebSocket() { [native code] }',
      true,
      'function send() { [native code] }',
    ])
    await page.close()
  })
})
