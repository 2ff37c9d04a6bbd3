// A voice session that speaks both ways (docs/zero-code.md, "Realtime sessions"): the real Agents
// SDK `RealtimeSession` over its WebSocket transport, bundled into a page with no code of the
// guard's, in Chromium with the built extension, sends its microphone's audio, against a local
// server that streams audio deltas in every response that calls the tool. The guard passes the
// audio by on its first characters: the server gets every chunk as sent, the page hears every
// chunk, and the calls among them are counted and reminded as in a session without audio.
import { afterAll, beforeAll, expect, test } from 'vitest'
import { reminderItem } from '../../fixtures/realtime/openai-events.ts'
import { GENTLE } from '../../fixtures/wire/reminders.ts'
import { openReportingPage, wireCount } from '../support/page-events.ts'
import { DETAILED, type Message, REMINDED_AFTER_RESULTS, twoAfterEachResult } from '../support/realtime-reminders.ts'
import { FINAL_TEXT, READ, startRealtimeServer, type RealtimeServer } from '../support/realtime-server.ts'
import { useStage } from '../support/stage.ts'
import { buildAgentPages } from './pages/build.ts'

/** Audio deltas per response that calls the tool: 3 s of speech in 100 ms chunks. */
const SPOKEN = 30
/** Chunks of the microphone's audio the page sends before its first message: 2 s. */
const MICROPHONE = 20

let realtime: RealtimeServer
const stage = useStage({ pages: () => buildAgentPages('realtime') })
beforeAll(async () => void (realtime = await startRealtimeServer({ ...READ, audio: SPOKEN })))
afterAll(() => realtime.close())

interface RealtimeWindow {
  realtime: { openai(url: string, spoken: number): Promise<{ turns: string[]; tools: number; audio: number }> }
}

test("the microphone's audio reaches the server as sent, the page hears every audio chunk, and the server receives the reminders after the 3rd and 5th results, each before its response.create, once", async () => {
  const page = await openReportingPage(stage.browser, `${stage.server.origin}/realtime.html`, 'realtime')
  const run = ([address, spoken]: readonly [string, number]) => (window as unknown as RealtimeWindow).realtime.openai(address, spoken)
  const done = await page.evaluate(run, [`${realtime.origin}/v1/realtime?model=gpt-realtime`, MICROPHONE] as const)
  expect([done.tools, done.audio, done.turns.at(-1)]).toEqual([6, 6 * SPOKEN, FINAL_TEXT])
  const texts = realtime.connections.at(-1)!.received
  const silence = JSON.stringify({ type: 'input_audio_buffer.append', audio: Buffer.alloc(4_800).toString('base64') })
  expect(texts.filter((text) => text.includes('input_audio_buffer.append'))).toEqual(Array.from({ length: MICROPHONE }, () => silence))
  const received = texts.map((text) => JSON.parse(text) as Message)
  expect(twoAfterEachResult(received)).toEqual(REMINDED_AFTER_RESULTS)
  expect(received.filter((m) => JSON.stringify(m).includes('"role":"user"') && !JSON.stringify(m).includes('Read a.txt'))).toEqual([reminderItem(GENTLE), reminderItem(DETAILED)])
  await expect.poll(() => wireCount(page, 'reminder')).toBe(2)
})
