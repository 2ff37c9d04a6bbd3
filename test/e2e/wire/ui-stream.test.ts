// Agents whose loop runs on the server, seen from the page (docs/zero-code.md, "Agents whose loop
// runs on the server"): a chat page on the real `useChat` against a server streaming with the real
// `ai` package, in Chromium with the built extension and no page code of the guard.
import { describe, expect, test } from 'vitest'
import type { PanelEvent } from '../../../extension/src/protocol/events.ts'
import { openReportingPage, reportedEvents } from '../support/page-events.ts'
import { useStage } from '../support/stage.ts'
import { FINAL_ANSWER, mountUiStreamServer, type UiStreamServer } from '../support/ui-stream-server.ts'
import { buildAgentPages } from './pages/build.ts'

let chatServer: UiStreamServer
const stage = useStage({ pages: () => buildAgentPages('use-chat'), routes: (server) => void (chatServer = mountUiStreamServer(server)) })

interface ChatWindow {
  chat: {
    start(text: string, tools: 'server' | 'client', slow?: number): Promise<{ status: string; parts: string[] }>
    open(text: string, tools: 'server' | 'client', slow?: number): void
    toolParts(): number
    stop(): Promise<void>
  }
}

const wireOf = (events: PanelEvent[]) => events.filter((e) => (e.type === 'agent' ? e.agent.kind === 'wire' : 'agentId' in e && e.agentId.startsWith('wire:')))

describe('useChat, its loop on the server', () => {
  test('the panel shows the six calls of the loop and would-remind rows at 3 and 5', async () => {
    const page = await openReportingPage(stage.browser, `${stage.server.origin}/use-chat.html`, 'chat')
    const done = await page.evaluate(() => (window as unknown as ChatWindow).chat.start('loop:6 why is the threshold ignored?', 'server'))
    expect(done.status).toBe('ready')
    expect(done.parts.filter((p) => p === 'tool-search')).toHaveLength(6)
    await expect.poll(async () => wireOf(await reportedEvents(page)).filter((e) => e.type === 'call').length).toBe(6)
    const wire = wireOf(await reportedEvents(page))
    expect(wire.filter((e) => e.type === 'agent').map((e) => e.type === 'agent' && e.agent.reach)).toEqual(['ui-stream'])
    expect(wire.filter((e) => e.type === 'call').map((e) => e.type === 'call' && [e.tool, e.count])).toEqual([1, 2, 3, 4, 5, 6].map((n) => ['search', n]))
    const reminders = wire.filter((e) => e.type === 'reminder')
    expect(reminders.map((e) => e.type === 'reminder' && [e.seq, e.withheld])).toEqual([
      [3, 'server-loop'],
      [5, 'server-loop'],
    ])
    // Nothing the page sent was changed: the server's model got no reminder.
    expect(chatServer.calls.prompts.some((p) => p.includes('repeat-tool-guard') || p.includes('You called'))).toBe(false)
    expect(chatServer.calls.prompts.at(-1)).toContain('no match')
    expect(FINAL_ANSWER).toBeTruthy()
  })

  test("the page's Stop closes the connection as without the extension, and the agent's run ends there", async () => {
    const page = await openReportingPage(stage.browser, `${stage.server.origin}/use-chat.html`, 'chat')
    const before = chatServer.closes.length
    await page.evaluate(() => (window as unknown as ChatWindow).chat.open('loop:6 slowly', 'server', 300))
    await page.waitForFunction(() => (window as unknown as ChatWindow).chat.toolParts() >= 2)
    await page.evaluate(() => (window as unknown as ChatWindow).chat.stop())
    await expect.poll(() => chatServer.closes.length).toBe(before + 1)
    expect(chatServer.closes.at(-1)).toBe(false)
    await expect.poll(async () => wireOf(await reportedEvents(page)).filter((e) => e.type === 'call').length).toBeGreaterThanOrEqual(2)
    const calls = wireOf(await reportedEvents(page)).filter((e) => e.type === 'call').length
    expect(calls).toBeLessThan(6)
  })
})
