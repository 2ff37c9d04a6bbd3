// useChat whose loop runs on the server, in Firefox ESR with the built Firefox extension: the same
// page on the real `@ai-sdk/react` and the same server streaming with the real `ai` package as in
// Chromium (wire/ui-stream.test.ts), no page code of the guard. The stream is read as the page
// reads it, and the panel, opened as a page, shows the loop's six calls and its would-remind rows.
import type { Page } from 'puppeteer-core'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { detailed, GENTLE } from '../../fixtures/wire/reminders.ts'
import { launchFirefox, type Firefox } from '../support/firefox.ts'
import { serve, type TestServer } from '../support/server.ts'
import { mountUiStreamServer, type UiStreamServer, userTexts } from '../support/ui-stream-server.ts'
import { type BuiltPages, buildAgentPages } from '../wire/pages/build.ts'

let pages: BuiltPages
let server: TestServer
let chat: UiStreamServer
let firefox: Firefox
let page: Page

beforeAll(async () => {
  pages = await buildAgentPages('use-chat')
  server = await serve([pages.dir])
  chat = mountUiStreamServer(server)
  firefox = await launchFirefox()
  page = await firefox.newPage()
  await page.goto(`${server.origin}/use-chat.html`, { waitUntil: 'domcontentloaded' })
  await page.waitForFunction(() => 'chat' in window)
})

afterAll(async () => {
  await firefox?.close()
  await server?.close()
  await pages?.remove()
})

const CHAT = 'loop:6 in Firefox: why is the threshold ignored?'

test("the panel shows the six calls of the server's loop and would-remind rows at 3 and 5; the server's model got no reminder", async () => {
  const done = await page.evaluate((text) => (window as unknown as { chat: { start(text: string, tools: string): Promise<{ status: string; parts: string[] }> } }).chat.start(text, 'server'), CHAT)
  expect(done.status).toBe('ready')
  expect(done.parts.filter((p) => p === 'tool-search')).toHaveLength(6)
  for (const { prompt } of chat.calls.prompts.filter((p) => p.chat === CHAT)) expect(userTexts(prompt)).toEqual([CHAT])

  const panel = await firefox.openPanel(await firefox.tabId(page))
  const reach = () => panel.$$eval('[data-testid="agent-row"] [data-testid="agent-reach"]', (els) => els.map((e) => e.textContent))
  await expect.poll(reach, { interval: 200 }).toEqual(['ui-stream'])
  await panel.click('[data-testid="agent-row"]')
  const calls = () => panel.$$eval('[data-testid="timeline-row"][data-kind="call"]', (els) => els.length)
  await expect.poll(calls, { interval: 200 }).toBe(6)
  expect(await panel.$$eval('[data-testid="reminder-withheld"]', (els) => els.map((e) => e.textContent))).toEqual(Array(2).fill('would remind: the loop runs on the server'))
  expect(await panel.$$eval('[data-testid="reminder-text"]', (els) => els.map((e) => e.textContent))).toEqual([GENTLE, detailed('search', 5, '{"q":"threshold"}')])
  expect(await panel.$eval('[data-testid="agent-loop-spent"]', (e) => e.textContent)).toBe('3 in server loop')
  await panel.close()
})
