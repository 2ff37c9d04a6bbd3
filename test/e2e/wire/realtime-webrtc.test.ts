// A realtime voice agent over WebRTC, seen from the page (docs/zero-code.md, "Realtime sessions"):
// the real Agents SDK `RealtimeSession` over its `OpenAIRealtimeWebRTC` transport, bundled into a
// page with no code of the guard's, in Chromium with the built extension, against a local calls
// endpoint answered by a real WebRTC peer (werift) that speaks the realtime protocol on the
// `oai-events` channel. The peer receives each reminder right after the tool result that made it
// due, once; a data channel of another label is left alone. Chromium connects to a peer on the
// loopback address only when told it may (--allow-loopback-in-peer-connection).
import type { Page } from 'playwright-core'
import { afterAll, describe, expect, test } from 'vitest'
import type { PanelEvent } from '../../../extension/src/protocol/events.ts'
import { reminderItem } from '../../fixtures/realtime/openai-events.ts'
import { GENTLE } from '../../fixtures/wire/reminders.ts'
import { watchOnDemandHalf } from '../support/on-demand-half.ts'
import { expectWireCounts, openReportingPage, reportedEvents, wireCount, wireOf } from '../support/page-events.ts'
import { afterEachResult, DETAILED, type Message, REMINDED_AFTER_RESULTS, twoAfterEachResult } from '../support/realtime-reminders.ts'
import { FINAL_TEXT } from '../support/realtime-server.ts'
import { useStage } from '../support/stage.ts'
import { CALLS_PATH, createWebRtcCalls } from '../support/webrtc-server.ts'
import { buildAgentPages } from './pages/build.ts'

const calls = createWebRtcCalls()
// Any *.test host name is this machine: an origin that is not local, observed by default.
const stage = useStage({
  pages: () => buildAgentPages('realtime-webrtc'),
  routes: (server) => server.route(calls.route),
  launch: { args: ['--host-resolver-rules=MAP *.test 127.0.0.1', '--allow-loopback-in-peer-connection'] },
})
afterAll(() => calls.close())

interface WebRtcWindow {
  realtimeWebrtc: {
    openai(callsUrl: string): Promise<{ turns: string[]; tools: number }>
    channel(callsUrl: string, label: string, texts: string[]): Promise<string[]>
  }
}

/** Runs the agent in `page` against the endpoint at `origin`; what its oai-events channel carried, parsed. */
async function openAiRun(page: Page, origin: string): Promise<Message[]> {
  const done = await page.evaluate((url) => (window as unknown as WebRtcWindow).realtimeWebrtc.openai(url), `${origin}${CALLS_PATH}`)
  expect([done.tools, done.turns.at(-1)]).toEqual([6, FINAL_TEXT])
  const channel = calls.channels.filter((c) => c.label === 'oai-events').at(-1)!
  return channel.received.map((text) => JSON.parse(text) as Message)
}

const wireReminders = async (page: Page) => wireOf(await reportedEvents(page)).filter((e): e is Extract<PanelEvent, { type: 'reminder' }> => e.type === 'reminder')

describe("the Agents SDK's RealtimeSession over WebRTC", () => {
  test('the peer receives the gentle reminder after the 3rd result and the detailed one after the 5th, each before its response.create, once', async () => {
    const page = await openReportingPage(stage.browser, `${stage.server.origin}/realtime-webrtc.html`, 'realtimeWebrtc')
    const received = await openAiRun(page, stage.server.origin)
    expect(twoAfterEachResult(received)).toEqual(REMINDED_AFTER_RESULTS)
    const userMessages = received.filter((m) => m.type === 'conversation.item.create' && (m.item as { role?: string }).role === 'user')
    expect(userMessages.slice(1)).toEqual([reminderItem(GENTLE), reminderItem(DETAILED)])

    await expectWireCounts(page, { reminders: 2, calls: 6 })
    const wire = wireOf(await reportedEvents(page))
    expect(wire.filter((e) => e.type === 'agent').map((e) => e.type === 'agent' && [e.agent.reach, e.agent.format, e.agent.label])).toEqual([
      ['realtime-webrtc', 'openai-realtime', 'You are a voice agent that reads files.'],
    ])
    expect((await wireReminders(page)).map((e) => [e.seq, e.text, e.withheld])).toEqual([
      [3, GENTLE, undefined],
      [5, DETAILED, undefined],
    ])
    await page.close()
  })

  test('on an origin that is observed, nothing is sent and the panel shows where each reminder would go', async () => {
    const origin = `http://agent.test:${new URL(stage.server.origin).port}`
    const page = await openReportingPage(stage.browser, `${origin}/realtime-webrtc.html`, 'realtimeWebrtc')
    const received = await openAiRun(page, origin)
    expect(afterEachResult(received).map((messages) => messages[0]?.type)).toEqual(Array.from({ length: 6 }, () => 'response.create'))
    await expect.poll(() => wireCount(page, 'reminder')).toBe(2)
    expect((await wireReminders(page)).map((e) => [e.seq, e.withheld, e.placement?.startsWith('conversation.item.create after call_')])).toEqual([
      [3, 'observe', true],
      [5, 'observe', true],
    ])
    await page.close()
  })
})

describe('a data channel of another label', () => {
  test('goes out and comes back byte for byte, and the on-demand half never starts', async () => {
    const { page, runs } = await watchOnDemandHalf(stage.browser)
    await page.goto(`${stage.server.origin}/realtime-webrtc.html`)
    await page.waitForFunction(() => 'realtimeWebrtc' in window)
    // Texts that look like realtime events: on another channel they are only text.
    const texts = [
      'hello',
      JSON.stringify({ type: 'session.created', session: {} }),
      JSON.stringify({ type: 'conversation.item.create', item: { type: 'function_call_output', call_id: 'c1', output: 'x' } }),
    ]
    const echoed = await page.evaluate(({ url, texts }) => (window as unknown as WebRtcWindow).realtimeWebrtc.channel(url, 'chat', texts), { url: `${stage.server.origin}${CALLS_PATH}`, texts })
    expect(echoed).toEqual([...texts, '<3 bytes>'])
    expect(calls.channels.filter((c) => c.label === 'chat').at(-1)!.received).toEqual([...texts, '<binary 3 bytes>'])
    expect(await runs()).toBe(0)
    expect(
      await page.evaluate(() => [
        RTCPeerConnection.name,
        String(RTCPeerConnection),
        new RTCPeerConnection().constructor === RTCPeerConnection,
        String(RTCPeerConnection.prototype.createDataChannel),
        String(RTCDataChannel.prototype.send),
      ]),
    ).toEqual(['RTCPeerConnection', 'function RTCPeerConnection() { [native code] }', true, 'function createDataChannel() { [native code] }', 'function send() { [native code] }'])
    await page.close()
  })
})
