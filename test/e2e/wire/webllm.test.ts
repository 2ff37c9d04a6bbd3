// Zero-code mode against an agent on WebLLM's Web Worker engine, in Chromium with the built
// extension: the page uses the real `WebWorkerMLCEngine` client, the worker is a stand-in that
// speaks its message protocol, checks each request by WebLLM's own rules and calls one tool again
// and again. What the worker received must hold the reminders at their exact places, once, with the
// rest of every request as the page made it; every other message to a worker arrives untouched,
// and a page that only ever posts those never starts the guard's on-demand half.
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { detailed, GENTLE } from '../../fixtures/wire/reminders.ts'
import { watchOnDemandHalf } from '../support/on-demand-half.ts'
import { openReportingPage, reportedEvents } from '../support/page-events.ts'
import { useStage } from '../support/stage.ts'
import { buildWebllmPages } from './pages/build.ts'
import type { WebllmPage, WebllmRun } from './pages/webllm/agent.ts'
import { ANSWER, CALL, LOOPS, MODEL } from './pages/webllm/script.ts'

const stage = useStage({ pages: buildWebllmPages })

const DETAILED = detailed(CALL.name, 5, CALL.arguments)
/** Where the reminders go: no system message, so the third result is messages[6], the fifth messages[11]. */
const GENTLE_AT = 7
const DETAILED_AT = 12

type Message = { role: string; content: unknown }
type Received = { kind: string; uuid: string; content: Record<string, unknown> & { request?: { messages: Message[] } & Record<string, unknown> } }

/** Opens the agent page, listening to what the page reports towards the panel. */
const openPage = () => openReportingPage(stage.browser, `${stage.server.origin}/webllm.html`, 'webllm')

type WebllmWindow = { webllm: WebllmPage }

/** The worker reports on a channel: wait until it has reported `count` messages. */
async function receivedBy(page: Page, worker: string, count: number): Promise<unknown[]> {
  await page.waitForFunction(([name, n]) => (window as unknown as WebllmWindow).webllm.receivedBy(name).length >= n, [worker, count] as const)
  return page.evaluate((name) => (window as unknown as WebllmWindow).webllm.receivedBy(name), worker)
}

const isReminder = (m: Message) => m.role === 'user' && (m.content === GENTLE || m.content === DETAILED)

describe.each([false, true])('an agent on WebWorkerMLCEngine, stream %s, looping on one call', (stream) => {
  let page: Page
  let run: WebllmRun
  let received: Received[]
  let chats: Received[]

  beforeAll(async () => {
    page = await openPage()
    run = await page.evaluate((s) => (window as unknown as WebllmWindow).webllm.run({ prompt: 'Why is the threshold ignored?', stream: s }), stream)
    // reload, then per request: the request (and, streaming, its chunks: two and the end, then nothing)
    const perRequest = stream ? 4 : 1
    received = (await receivedBy(page, 'webllm', 1 + (LOOPS + 1) * perRequest)) as Received[]
    chats = received.filter((r) => r.kind.startsWith('chatCompletion'))
  })
  afterAll(async () => {
    await page?.close()
  })

  test("the agent finishes: the worker accepted every request by WebLLM's rules", () => {
    expect(run.answer).toBe(ANSWER)
    expect(run.results).toHaveLength(LOOPS)
    expect(chats).toHaveLength(LOOPS + 1)
    expect(chats.map((c) => c.kind)).toEqual(Array.from({ length: LOOPS + 1 }, () => (stream ? 'chatCompletionStreamInit' : 'chatCompletionNonStreaming')))
  })

  test('reload reached the worker as the client made it', () => {
    expect(received[0]).toEqual({ kind: 'reload', uuid: expect.any(String), content: { modelId: [MODEL], chatOpts: '(undefined)' } })
  })

  test('the gentle reminder follows the third result and the detailed one the fifth, in every later request, once', () => {
    chats.forEach((chat, n) => {
      const messages = chat.content.request!.messages
      const texts = messages.map((m) => m.content)
      expect(texts.filter((t) => t === GENTLE)).toHaveLength(n >= 3 ? 1 : 0)
      expect(texts.filter((t) => t === DETAILED)).toHaveLength(n >= 5 ? 1 : 0)
      if (n >= 3) expect(messages[GENTLE_AT]).toEqual({ role: 'user', content: GENTLE })
      if (n >= 5) expect(messages[DETAILED_AT]).toEqual({ role: 'user', content: DETAILED })
      // WebLLM's rule: the last message is the user's or a tool's.
      expect(['user', 'tool']).toContain(messages.at(-1)!.role)
    })
  })

  test("everything but the reminders is the request the page made; the rest of each message the client's", () => {
    chats.forEach((chat, n) => {
      const { messages, ...fields } = chat.content.request!
      const { messages: pageMessages, ...pageFields } = run.requests[n] as unknown as { messages: Message[] }
      expect(messages.filter((m) => !isReminder(m))).toEqual(pageMessages)
      expect(fields).toEqual(pageFields)
      const { request: _, ...content } = chat.content
      expect(content).toEqual(stream ? { selectedModelId: MODEL, streamId: expect.any(String), modelId: [MODEL], chatOpts: '(undefined)' } : { modelId: [MODEL], chatOpts: '(undefined)' })
      expect(chat.uuid).toEqual(expect.any(String))
    })
  })

  test('append-only: each request starts with the whole history the previous one sent', () => {
    for (let n = 1; n < chats.length; n++) {
      const before = chats[n - 1]!.content.request!.messages
      expect(chats[n]!.content.request!.messages.slice(0, before.length)).toEqual(before)
    }
  })

  test('the panel learns of one wire agent, reached through webllm, its calls and where each reminder went', async () => {
    await expect.poll(async () => (await reportedEvents(page)).filter((e) => e.type === 'request').length).toBe(LOOPS)
    const events = await reportedEvents(page)
    expect(events.filter((e) => e.type === 'agent')).toEqual([
      { type: 'agent', at: expect.any(Number), agent: { id: 'wire:1', kind: 'wire', label: expect.any(String), format: 'openai-chat', reach: 'webllm' } },
    ])
    expect(events.filter((e) => e.type === 'call').map((e) => e.type === 'call' && [e.seq, e.tool, e.args, e.count])).toEqual([1, 2, 3, 4, 5, 6].map((n) => [n, CALL.name, CALL.arguments, n]))
    expect(events.filter((e) => e.type === 'reminder').map((e) => e.type === 'reminder' && [e.seq, e.level, e.placement, e.text])).toEqual([
      [3, 'gentle', `messages[${GENTLE_AT}]`, GENTLE],
      [5, 'detailed', `messages[${DETAILED_AT}]`, DETAILED],
    ])
    const requests = events.filter((e) => e.type === 'request')
    expect(requests.map((e) => e.type === 'request' && [e.url, e.rewritten])).toEqual([1, 2, 3, 4, 5, 6].map((n) => [`webllm:${MODEL}`, n >= 3]))
    expect(events.filter((e) => e.type === 'fault')).toEqual([])
  })

  test('the DevTools panel lists the agent as wire, reached through webllm, with its six calls', async () => {
    const panel = await stage.browser.openPanel(await stage.browser.tabId(page))
    const row = panel.getByTestId('agent-row').filter({ has: panel.getByTestId('agent-reach').getByText('webllm', { exact: true }) })
    await expect.poll(() => row.count()).toBe(1)
    expect(await row.getByTestId('agent-kind').textContent()).toBe('wire')
    await expect.poll(() => row.getByTestId('agent-count').textContent()).toBe(String(LOOPS))
    expect(await row.getByTestId('agent-chain').textContent()).toBe(`${CALL.name} ${CALL.arguments}`)
    await panel.close()
  })
})

describe('a page whose workers never get a chat completion request', () => {
  let page: Page
  let onDemandRuns: () => Promise<number | undefined>

  beforeAll(async () => {
    ;({ page, runs: onDemandRuns } = await watchOnDemandHalf(stage.browser))
  })
  afterAll(async () => {
    await page?.close()
  })

  test("its messages arrive as posted, transfers done; the guard's on-demand half never runs; a first chat request runs it", async () => {
    await page.goto(`${stage.server.origin}/webllm.html`)
    await page.waitForFunction(() => 'webllm' in window)
    const { detached } = await page.evaluate(() => (window as unknown as WebllmWindow).webllm.otherTraffic())
    await page.evaluate(() => (window as unknown as WebllmWindow).webllm.loadOnly())
    expect(detached).toEqual([true, true])
    expect(await receivedBy(page, 'other', 4)).toEqual([
      'hello',
      { kind: 'render', uuid: 'r-1', content: { request: { messages: [{ role: 'tool', tool_call_id: '0', content: 'x' }] } } },
      { bytes: { bytes: [1, 2, 3] } },
      { bytes: { bytes: [4, 5] } },
    ])
    expect(await receivedBy(page, 'webllm', 1)).toEqual([{ kind: 'reload', uuid: expect.any(String), content: { modelId: [MODEL], chatOpts: '(undefined)' } }])
    expect(await onDemandRuns()).toBe(0)
    // The first chat completion request is an LLM request: the analysis starts, once.
    await page.evaluate(() => (window as unknown as WebllmWindow).webllm.run({ prompt: 'hi', stream: false }))
    expect(await onDemandRuns()).toBe(1)
  })
})
