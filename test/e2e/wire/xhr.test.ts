// Zero-code mode over XMLHttpRequest, in Chromium with the built extension: agents written with the
// real axios loop on one call against the mock model, and the reminders must land at their exact
// places, once, with the earlier part of every request unchanged; a synchronous XHR is guarded the
// same way. The page's other XHR traffic is in xhr-traffic.test.ts.
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { openaiChatBody, repeat, type Script } from '../../fixtures/wire/conversations.ts'
import { occurrences } from '../../fixtures/wire/placements.ts'
import { detailed, GENTLE } from '../../fixtures/wire/reminders.ts'
import type { Exchange } from '../support/mock-llm.ts'
import { reportedEvents } from '../support/page-events.ts'
import { expectAppendOnly, expectRemindersOnceInPlace } from './expect-sticky.ts'
import type { AgentOptions, AgentRun } from './pages/read-file-tool.ts'
import type { XhrAgentName } from './pages/xhr-agents.ts'
import { READ, useXhrStage } from './xhr-stage.ts'

const { stage, openPage } = useXhrStage(false)

const DETAILED = detailed('read_file', 5, '{"path":"notes.txt"}')

interface Session {
  readonly page: Page
  readonly run: AgentRun & { progress?: number }
  readonly exchanges: Exchange[]
}

async function runAgent(agent: XhrAgentName): Promise<Session> {
  const model = `xhr-${agent}-${Math.random().toString(36).slice(2)}`
  stage.mock.script(model, { steps: Array.from({ length: 6 }, () => [READ]), answer: 'The loader ignores "threshold".' })
  const page = await openPage(stage.browser)
  const options: AgentOptions = { model, system: 'You are a careful coding agent.', prompt: 'Why is the threshold ignored?' }
  const run = await page.evaluate(([name, o]) => (window as unknown as { agents: Record<string, (o: AgentOptions) => Promise<AgentRun>> }).agents[name]!(o), [agent, options] as const)
  return { page, run, exchanges: stage.mock.exchanges.filter((e) => e.model === model) }
}

const PLACES: Readonly<Record<XhrAgentName, { gentle: string; detailed: string; format: string }>> = {
  openaiChat: { gentle: 'messages[8]', detailed: 'messages[13]', format: 'openai-chat' },
  anthropic: { gentle: 'messages[6].content[1]', detailed: 'messages[10].content[1]', format: 'anthropic' },
  gemini: { gentle: 'contents[7]', detailed: 'contents[12]', format: 'gemini' },
}

describe.each(Object.keys(PLACES) as XhrAgentName[])('axios, %s, looping six times on one call', (agent) => {
  let session: Session
  const places = PLACES[agent]
  beforeAll(async () => {
    session = await runAgent(agent)
  })
  afterAll(() => session?.page.close())

  test('the agent finishes; the model accepted every request (no format rule broken)', () => {
    expect(session.run.answer).toBe('The loader ignores "threshold".')
    expect(session.exchanges.map((e) => [e.status, e.error])).toEqual(Array.from({ length: 7 }, () => [200, undefined]))
    if (agent === 'anthropic') expect(session.run.progress).toBeGreaterThan(0)
  })

  test('the gentle reminder follows the third result and the detailed one the fifth, in every later request, once', () => {
    expectRemindersOnceInPlace(session.exchanges, places, { gentle: GENTLE, detailed: DETAILED })
  })

  test("append-only: each request starts with the whole history the previous one sent; the headers are axios's own", () => {
    expectAppendOnly(session.exchanges)
    for (const { headers, body } of session.exchanges) {
      expect(headers['content-type']).toBe('application/json')
      expect(headers.accept).toBe('application/json, text/plain, */*')
      expect(Number(headers['content-length'])).toBe(Buffer.byteLength(body))
    }
  })

  test('no tool result was altered', () => {
    const last = session.exchanges.at(-1)!.body
    expect(session.run.results).toHaveLength(6)
    expect(occurrences(last, session.run.results[0]!)).toBe(6)
  })

  test('the panel learns of one wire agent reached by xhr, its six calls and where each reminder went', async () => {
    await expect.poll(async () => (await reportedEvents(session.page)).filter((e) => e.type === 'request').length).toBe(6)
    const events = await reportedEvents(session.page)
    expect(events.filter((e) => e.type === 'agent')).toEqual([
      { type: 'agent', at: expect.any(Number), agent: { id: 'wire:1', kind: 'wire', label: 'You are a careful coding agent.', format: places.format, reach: 'xhr' } },
    ])
    expect(events.filter((e) => e.type === 'call').map((e) => e.type === 'call' && [e.seq, e.tool, e.args, e.count])).toEqual(
      [1, 2, 3, 4, 5, 6].map((n) => [n, 'read_file', '{"path":"notes.txt"}', n]),
    )
    expect(events.filter((e) => e.type === 'reminder').map((e) => e.type === 'reminder' && [e.seq, e.level, e.placement, e.text])).toEqual([
      [3, 'gentle', places.gentle, GENTLE],
      [5, 'detailed', places.detailed, DETAILED],
    ])
    expect(events.filter((e) => e.type === 'request').every((e) => e.type === 'request' && e.url.startsWith(`${stage.server.origin}/v1`))).toBe(true)
    expect(events.filter((e) => e.type === 'fault')).toEqual([])
    if (agent !== 'openaiChat') return
    const panel = await stage.browser.openPanel(await stage.browser.tabId(session.page))
    const row = panel.getByTestId('agent-row').filter({ hasText: 'You are a careful coding agent.' })
    await expect.poll(() => row.count()).toBe(1)
    expect(await row.getByTestId('agent-kind').textContent()).toBe('wire')
    expect(await row.getByTestId('agent-reach').textContent()).toBe('xhr')
    await expect.poll(() => row.getByTestId('agent-count').textContent()).toBe('6')
    await panel.close()
  })
})

test('a synchronous XHR carrying an LLM request is guarded the same way', async () => {
  const model = `xhr-sync-${Math.random().toString(36).slice(2)}`
  stage.mock.script(model, { steps: [[READ]] })
  const script: Script = { system: 'You are a synchronous agent.', turns: [{ prompt: 'go' }, ...repeat(READ, 3)] }
  const body = JSON.stringify({ ...openaiChatBody(script), model, stream: false })
  const page = await openPage(stage.browser)
  const outcome = await page.evaluate((text) => {
    const xhr = new XMLHttpRequest()
    xhr.open('POST', '/v1/chat/completions', false)
    xhr.setRequestHeader('Content-Type', 'application/json')
    xhr.send(text)
    return [xhr.status, xhr.readyState, JSON.parse(xhr.responseText).object]
  }, body)
  expect(outcome).toEqual([200, 4, 'chat.completion'])
  const [exchange] = stage.mock.exchanges.filter((e) => e.model === model)
  const sent = JSON.parse(exchange!.body)
  expect(sent.messages.slice(0, 8)).toEqual(JSON.parse(body).messages)
  expect(sent.messages[8]).toEqual({ role: 'user', content: GENTLE })
  expect(occurrences(exchange!.body, GENTLE)).toBe(1)
  await page.close()
})
