// A voice session that speaks before each tool call (docs/zero-code.md, "Realtime sessions"): the
// real Agents SDK `RealtimeSession` over its WebSocket transport, bundled into a page with no code
// of the guard's, in Chromium with the built extension, against a local server that streams audio
// deltas in every response that calls the tool. The guard passes the audio by on its first
// characters: the page hears every chunk, and the calls among them are counted and reminded as in
// a session without audio.
import { afterAll, beforeAll, expect, test } from 'vitest'
import { reminderItem } from '../../fixtures/realtime/openai-events.ts'
import { GENTLE } from '../../fixtures/wire/reminders.ts'
import { openReportingPage, reportedEvents } from '../support/page-events.ts'
import { DETAILED, type Message, REMINDED_AFTER_RESULTS, twoAfterEachResult } from '../support/realtime-reminders.ts'
import { FINAL_TEXT, READ, startRealtimeServer, type RealtimeServer } from '../support/realtime-server.ts'
import { useStage } from '../support/stage.ts'
import { buildAgentPages } from './pages/build.ts'

/** Audio deltas per response that calls the tool: 3 s of speech in 100 ms chunks. */
const SPOKEN = 30

let realtime: RealtimeServer
const stage = useStage({ pages: () => buildAgentPages('realtime') })
beforeAll(async () => void (realtime = await startRealtimeServer({ ...READ, audio: SPOKEN })))
afterAll(() => realtime.close())

interface RealtimeWindow {
  realtime: { openai(url: string): Promise<{ turns: string[]; tools: number; audio: number }> }
}

test('the page hears every audio chunk, and the server receives the reminders after the 3rd and 5th results, each before its response.create, once', async () => {
  const page = await openReportingPage(stage.browser, `${stage.server.origin}/realtime.html`, 'realtime')
  const done = await page.evaluate((address) => (window as unknown as RealtimeWindow).realtime.openai(address), `${realtime.origin}/v1/realtime?model=gpt-realtime`)
  expect([done.tools, done.audio, done.turns.at(-1)]).toEqual([6, 6 * SPOKEN, FINAL_TEXT])
  const received = realtime.connections.at(-1)!.received.map((text) => JSON.parse(text) as Message)
  expect(twoAfterEachResult(received)).toEqual(REMINDED_AFTER_RESULTS)
  expect(received.filter((m) => JSON.stringify(m).includes('"role":"user"') && !JSON.stringify(m).includes('Read a.txt'))).toEqual([reminderItem(GENTLE), reminderItem(DETAILED)])
  await expect.poll(async () => (await reportedEvents(page)).filter((e) => e.type === 'reminder' && e.agentId.startsWith('wire:')).length, { timeout: 10_000 }).toBe(2)
})
