// The Firefox build in Firefox ESR: the page API before the page's first script (in every frame),
// reminders at 3 and 5 through it, zero-code mode guarding an OpenAI Chat Completions agent that
// never calls the guard, and the panel opened as a page: both agents listed, and zero-code mode's
// per-origin setting switched from it through extension storage.
import type { Page } from 'puppeteer-core'
import { afterAll, afterEach, beforeAll, beforeEach, expect, test } from 'vitest'
import { PROTOCOL_VERSION } from '../../../extension/src/protocol/events.ts'
import { ZERO_CODE_STORAGE_KEY } from '../../../extension/src/protocol/zero-code-mode.ts'
import { openaiChatBody, repeat as repeatTurns } from '../../fixtures/wire/conversations.ts'
import { detailed, GENTLE } from '../../fixtures/wire/reminders.ts'
import { GENTLE_REMINDER, probeFrames, repeat, serveFixtures, type AgentWindow, type Call } from '../extension/fixture.ts'
import { launchFirefox, type Firefox } from '../support/firefox.ts'
import { mountMockLlm, type MockLlm } from '../support/mock-llm.ts'
import type { TestServer } from '../support/server.ts'

const SYSTEM = 'You are a Firefox agent.'

let firefox: Firefox
let server: TestServer
let llm: MockLlm
let page: Page

beforeAll(async () => {
  server = await serveFixtures()
  llm = mountMockLlm(server)
  llm.script('loop-model', { steps: Array.from({ length: 5 }, () => [{ name: 'grep', args: { q: 'TODO' } }]), answer: 'Nothing left.' })
  firefox = await launchFirefox()
})

afterAll(async () => {
  await firefox?.close()
  await server?.close()
})

// Every test in a tab of its own, on a fresh page.
beforeEach(async () => {
  page = await firefox.newPage()
  await page.goto(`${server.origin}/agent.html`, { waitUntil: 'domcontentloaded' })
})

afterEach(() => page.close())

/** No origin's zero-code setting stored: every origin on its default (guard for this local server). */
async function clearZeroCodeSettings(): Promise<void> {
  const extensionPage = await firefox.openPanel(-1)
  await extensionPage.evaluate((key) => chrome.storage.local.remove(key), ZERO_CODE_STORAGE_KEY)
  await extensionPage.close()
}

/** Runs `calls` through the fixture page's agent `agent`; the reminders after each call. */
const runHookAgent = (agent: string, calls: Call[]) => page.evaluate((agent, calls) => (window as unknown as AgentWindow).agentHarness.run(agent, calls), agent, calls)

/** A plain agent loop over fetch, as an SDK would run it, that never keeps the reminders itself; its answer. */
const runWireAgent = () =>
  page.evaluate(async (system) => {
    const messages: Record<string, unknown>[] = [
      { role: 'system', content: system },
      { role: 'user', content: 'Find the TODOs.' },
    ]
    for (let step = 0; step < 10; step++) {
      const response = await fetch('/v1/chat/completions', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'loop-model', messages, tools: [], stream: false }),
      })
      const reply = (await response.json()) as { choices: { message: { content: string | null; tool_calls?: { id: string }[] } }[] }
      const message = reply.choices[0]!.message
      messages.push(message)
      if (!message.tool_calls) return message.content
      for (const call of message.tool_calls) messages.push({ role: 'tool', tool_call_id: call.id, content: 'src/a.ts: TODO' })
    }
    return 'step limit'
  }, SYSTEM)

test('the page API exists before the page runs its first script', async () => {
  expect(await page.evaluate(() => (window as unknown as AgentWindow).firstScriptSaw)).toEqual({ type: 'object', version: PROTOCOL_VERSION })
})

test('the page API is in every frame before its first script, srcdoc frames included', async () => {
  const seen = await page.evaluate(probeFrames)
  expect(seen).toEqual({ child: { type: 'object', version: PROTOCOL_VERSION }, inline: 'object', own: true })
})

test('an agent that calls the page API gets the gentle reminder at the 3rd identical call and the detailed one at the 5th', async () => {
  const reminders = await runHookAgent('hook-agent', repeat(6, ['read_file', { path: 'a.txt' }]))
  expect(reminders).toEqual([[], [], [GENTLE_REMINDER], [], [detailed('read_file', 5, '{"path":"a.txt"}')], []])
})

test('zero-code mode guards an OpenAI Chat Completions agent that never calls the guard', async () => {
  await clearZeroCodeSettings()
  const before = llm.exchanges.length
  expect(await runWireAgent()).toBe('Nothing left.')
  const received = llm.exchanges.slice(before).filter((e) => e.model === 'loop-model')
  expect(received.map((e) => e.status)).toEqual([200, 200, 200, 200, 200, 200])
  const last = JSON.parse(received.at(-1)!.body) as { messages: { role: string; content: unknown }[] }
  expect(last.messages[8]).toEqual({ role: 'user', content: GENTLE })
  expect(last.messages[13]).toEqual({ role: 'user', content: detailed('grep', 5, '{"q":"TODO"}') })
  expect(last.messages.filter((m) => m.role === 'user')).toHaveLength(3)
})

test('the panel opened as a page shows the agents', async () => {
  await runHookAgent('hook-agent', repeat(3, ['read_file', { path: 'a.txt' }]))
  expect(await runWireAgent()).toBe('Nothing left.')
  const panel = await firefox.openPanel(await firefox.tabId(page))
  const labels = async () => (await panel.$$eval('[data-testid="agent-row"] [data-testid="agent-label"]', (els) => els.map((e) => e.textContent ?? ''))).sort()
  await expect.poll(labels, { interval: 200 }).toEqual([expect.stringContaining(SYSTEM.slice(0, 12)), 'hook-agent'].sort())
  const kinds = await panel.$$eval('[data-testid="agent-row"] [data-testid="agent-kind"]', (els) => els.map((e) => e.textContent).sort())
  expect(kinds).toEqual(['hook', 'wire'])
  await panel.close()
})

test('the panel switches zero-code mode for the page origin through extension storage: observed requests go out as made', async () => {
  await clearZeroCodeSettings()
  try {
    // The page reports its load with its first call: the panel knows its origin from then on.
    await runHookAgent('hook-agent', [['read_file', { path: 'a.txt' }]])
    const panel = await firefox.openPanel(await firefox.tabId(page))
    const status = () => panel.$eval('[data-testid="zero-code"]', (e) => e.textContent ?? '')
    await expect.poll(status, { interval: 200 }).toContain(`Zero-code: guard · ${new URL(server.origin).host}`)
    await panel.click('[data-testid="zero-code-observe"]')
    await expect.poll(status, { interval: 200 }).toContain('Zero-code: observe')
    const body = JSON.stringify({ ...openaiChatBody({ system: 'You are observed.', turns: [{ prompt: 'Look.' }, ...repeatTurns({ name: 'grep', args: { q: 'x' } }, 3)] }), model: 'loop-model' })
    const sent = async () => {
      await page.evaluate((b) => fetch('/v1/chat/completions', { method: 'POST', headers: { 'content-type': 'application/json' }, body: b }).then((r) => r.text()), body)
      return llm.exchanges.at(-1)!.body
    }
    await expect.poll(sent, { interval: 200 }).toBe(body)
    await panel.close()
  } finally {
    // Stored for the whole browser: no other test is to run under it.
    await clearZeroCodeSettings()
  }
})
