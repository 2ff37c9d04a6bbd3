// Agents whose loop runs on the server, seen from the page (docs/zero-code.md, "Agents whose loop
// runs on the server"): a chat page on the real `useChat` against a server streaming with the real
// `ai` package, in Chromium with the built extension and no page code of the guard.
import { describe, expect, test } from 'vitest'
import { expectWireReminders, openReportingPage, reportedEvents, wireCount, wireOf } from '../support/page-events.ts'
import type { TestServer } from '../support/server.ts'
import { useStage } from '../support/stage.ts'
import { detailed, GENTLE } from '../../fixtures/wire/reminders.ts'
import { mountUiStreamServer, SEARCH_RESULT, type UiStreamServer, userTexts } from '../support/ui-stream-server.ts'
import { buildAgentPages } from './pages/build.ts'

let chatServer: UiStreamServer
const FEED = ['data: {"type":"start"}\n\n', 'data: {"type":"tool-input-available","toolCallId":"c1","toolName":"search","input":{}}\n\n', 'data: [DONE]\n\n']

/** A plain server-sent events feed, at any method: the same events as a UI message stream, without its header. */
function routeFeed(server: TestServer): void {
  server.route((req, res) => {
    if (new URL(req.url ?? '/', 'http://x').pathname !== '/feed') return false
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' })
    res.end(FEED.join(''))
    return true
  })
}

const stage = useStage({
  pages: () => buildAgentPages('use-chat'),
  routes: (server) => {
    chatServer = mountUiStreamServer(server)
    routeFeed(server)
  },
})

interface ChatWindow {
  chat: {
    start(text: string, tools: 'server' | 'client', slow?: number): Promise<{ status: string; parts: string[] }>
    open(text: string, tools: 'server' | 'client', slow?: number): void
    outputs(): number
    stop(): Promise<void>
  }
}

const CHAT = 'loop:6 why is the threshold ignored?'

describe('useChat, its loop on the server', () => {
  test('the panel shows the six calls of the loop and would-remind rows at 3 and 5', async () => {
    const page = await openReportingPage(stage.browser, `${stage.server.origin}/use-chat.html`, 'chat')
    const done = await page.evaluate((text) => (window as unknown as ChatWindow).chat.start(text, 'server'), CHAT)
    expect(done.status).toBe('ready')
    expect(done.parts.filter((p) => p === 'tool-search')).toHaveLength(6)
    await expect.poll(() => wireCount(page, 'call')).toBe(6)
    const wire = wireOf(await reportedEvents(page))
    expect(wire.filter((e) => e.type === 'agent').map((e) => e.type === 'agent' && e.agent.reach)).toEqual(['ui-stream'])
    expect(wire.filter((e) => e.type === 'call').map((e) => e.type === 'call' && [e.tool, e.count])).toEqual([1, 2, 3, 4, 5, 6].map((n) => ['search', n]))
    const reminders = wire.filter((e) => e.type === 'reminder')
    expect(reminders.map((e) => e.type === 'reminder' && [e.seq, e.withheld])).toEqual([
      [3, 'server-loop'],
      [5, 'server-loop'],
    ])
    // Nothing reached the server's model but the user's own message.
    const prompts = chatServer.calls.prompts.filter((p) => p.chat === CHAT)
    expect(prompts).toHaveLength(7)
    for (const { prompt } of prompts) expect(userTexts(prompt)).toEqual([CHAT])
    expect(JSON.stringify(prompts.at(-1)!.prompt)).toContain(SEARCH_RESULT)

    // The panel of the tab: the agent reached by its stream, its six calls, the two would-remind rows and the calls spent past the first.
    const panel = await stage.browser.openPanel(await stage.browser.tabId(page))
    const row = panel.getByTestId('agent-row').filter({ hasText: 'ui-stream' })
    await expect.poll(() => row.count()).toBe(1)
    await row.click()
    await expect.poll(() => panel.locator('[data-testid="timeline-row"][data-kind="call"]').count()).toBe(6)
    expect(await panel.getByTestId('reminder-withheld').allTextContents()).toEqual(Array(2).fill('would remind: the loop runs on the server'))
    expect(await panel.getByTestId('reminder-text').allTextContents()).toEqual([GENTLE, detailed('search', 5, '{"q":"threshold"}')])
    expect(await row.getByTestId('agent-loop-spent').textContent()).toBe('3 in server loop')
    await panel.close()
  })

  test("the page's Stop closes the connection as without the extension, and the agent's run ends there", async () => {
    const page = await openReportingPage(stage.browser, `${stage.server.origin}/use-chat.html`, 'chat')
    const before = chatServer.closes.length
    await page.evaluate(() => (window as unknown as ChatWindow).chat.open('loop:6 slowly', 'server', 300))
    await page.waitForFunction(() => (window as unknown as ChatWindow).chat.outputs() >= 2)
    const read = await page.evaluate(async () => {
      const { chat } = window as unknown as ChatWindow
      await chat.stop()
      return chat.outputs()
    })
    await expect.poll(() => chatServer.closes.length).toBe(before + 1)
    // The server was still writing: the page's stop reached it as a closed connection.
    expect(chatServer.closes.at(-1)).toBe(false)
    // The run ends where the page's reading did: the calls whose results the page read, no more.
    await expect.poll(() => wireCount(page, 'call')).toBe(read)
    expect(read).toBeLessThan(6)
  })
})

describe('useChat, its tools on the page (sendAutomaticallyWhen)', () => {
  const CLIENT_CHAT = 'loop:6 client-side: why is the threshold ignored?'

  test("the 3rd and 5th follow-up requests carry the reminders, and the server's model receives them, once each", async () => {
    const page = await openReportingPage(stage.browser, `${stage.server.origin}/use-chat.html`, 'chat')
    const done = await page.evaluate((text) => (window as unknown as ChatWindow).chat.start(text, 'client'), CLIENT_CHAT)
    expect(done.status).toBe('ready')
    const prompts = chatServer.calls.prompts.filter((p) => p.chat === CLIENT_CHAT).map((p) => userTexts(p.prompt))
    // The first request and six follow-ups, each carrying one more result.
    expect(prompts).toHaveLength(7)
    const DETAILED = detailed('search', 5, '{"q":"threshold"}')
    expect(prompts.map((texts) => texts.filter((t) => t !== CLIENT_CHAT))).toEqual([[], [], [], [GENTLE], [GENTLE], [GENTLE, DETAILED], [GENTLE, DETAILED]])
    await expectWireReminders(page, [
      [3, undefined],
      [5, undefined],
    ])
    const wire = wireOf(await reportedEvents(page))
    expect(wire.filter((e) => e.type === 'agent').map((e) => e.type === 'agent' && e.agent.reach)).toEqual(['ui-stream'])
  })
})

describe('a stream that is neither', () => {
  test("a plain SSE feed answering a chat-shaped request, and an EventSource, are left the browser's: never adopted, never read by the guard", async () => {
    const page = await openReportingPage(stage.browser, `${stage.server.origin}/use-chat.html`, 'chat')
    const seen = await page.evaluate(async () => {
      const body = JSON.stringify({ id: 'feed', messages: [{ id: 'm1', role: 'user', parts: [{ type: 'text', text: 'hi' }] }], trigger: 'submit-message' })
      const response = await fetch('/feed', { method: 'POST', headers: { 'content-type': 'application/json' }, body })
      // An adopted response has its body's members as own properties (docs/zero-code.md, "Read as the page reads it").
      const own = Object.getOwnPropertyNames(response)
      const text = await response.text()
      const events = await new Promise<string[]>((resolve) => {
        const source = new EventSource('/feed')
        const got: string[] = []
        source.onmessage = (event) => {
          got.push(event.data)
          if (event.data === '[DONE]') {
            source.close()
            resolve(got)
          }
        }
      })
      return { own, text, events }
    })
    expect(seen).toEqual({ own: [], text: FEED.join(''), events: FEED.map((line) => line.slice('data: '.length, -2)) })
    // The page's own requests reach the panel; nothing of the feed does.
    const other = await page.evaluate(async () => {
      const body = JSON.stringify({ id: 'feed', messages: [{ id: 'm1', role: 'user', parts: [{ type: 'text', text: 'loop:1 hi' }] }], trigger: 'submit-message' })
      const response = await fetch('/chat?tools=server', { method: 'POST', headers: { 'content-type': 'application/json' }, body })
      const own = Object.getOwnPropertyNames(response)
      await response.text()
      return own
    })
    expect(other).toContain('body')
    await expect.poll(() => wireCount(page, 'call')).toBe(1)
  })
})
