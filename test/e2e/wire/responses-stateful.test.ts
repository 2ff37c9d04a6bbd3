// OpenAI Responses continued with previous_response_id, in Chromium with the built extension: the
// real `openai` SDK and `@openai/agents` in the page, continuing their conversation by id, against
// a mock model that keeps its responses (as the API does with `store`), loops on one call and
// rejects any continuation that breaks the rules (an output without its call, a reminder wedged
// between the calls and their outputs). Each reminder must reach the model once, in the request
// where it became due, right after that request's outputs, with the page's bytes around it.
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { PanelEvent } from '../../../extension/src/protocol/events.ts'
import { occurrences, reminderTextOf } from '../../fixtures/wire/placements.ts'
import { detailed, GENTLE } from '../../fixtures/wire/reminders.ts'
import type { Exchange } from '../support/mock-llm.ts'
import { openReportingPage, reportedEvents } from '../support/page-events.ts'
import { useStage } from '../support/stage.ts'
import type { AgentRun } from './pages/agents.ts'
import { buildAgentPages } from './pages/build.ts'
import type { StatefulAgentName, StatefulOptions } from './pages/stateful-agents.ts'

const stage = useStage({ pages: () => buildAgentPages('stateful-agents') })

const READ = { name: 'read_file', args: { path: 'notes.txt' } }
const SYSTEM = 'You are a careful coding agent.'
const ANSWER = 'The loader ignores "threshold".'
const LOOPS = 6
const reminderItem = (text: string) => JSON.stringify({ role: 'user', content: [{ type: 'input_text', text }] })
const DUE: Readonly<Record<number, string>> = { 3: GENTLE, 5: detailed('read_file', 5, '{"path":"notes.txt"}') }

interface Session {
  readonly page: Page
  readonly run: AgentRun
  /** The agent's model requests, as the mock received them. */
  readonly exchanges: Exchange[]
  /** The same requests' bodies as the page made them. */
  readonly pageBodies: string[]
  readonly events: () => Promise<PanelEvent[]>
}

async function runAgent(agent: StatefulAgentName, stream: boolean): Promise<Session> {
  const model = `loop-${agent}-${stream}-${Math.random().toString(36).slice(2)}`
  const greeter = `greet-${model}`
  stage.mock.script(model, { steps: Array.from({ length: LOOPS }, () => [READ]), answer: ANSWER })
  stage.mock.script(greeter, { steps: [], answer: 'Hello! How can I help?' })
  const page = await openReportingPage(stage.browser, `${stage.server.origin}/stateful-agents.html`, 'statefulAgents')
  const options: StatefulOptions = { model, system: SYSTEM, prompt: 'Why is the threshold ignored?', stream, greeter }
  const run = await page.evaluate(([name, o]) => (window as unknown as { statefulAgents: Record<string, (o: StatefulOptions) => Promise<AgentRun>> }).statefulAgents[name]!(o), [
    agent,
    options,
  ] as const)
  const all = await page.evaluate(() => (window as unknown as { pageBodies: string[] }).pageBodies)
  const pageBodies = all.filter((body) => (JSON.parse(body) as { model?: string }).model === model)
  return { page, run, exchanges: stage.mock.exchanges.filter((e) => e.model === model), pageBodies, events: () => reportedEvents(page) }
}

describe.each([
  ['openaiById', false],
  ['openaiById', true],
  ['agentsById', false],
  ['agentsById', true],
] as const)('%s (streamed: %s), looping six times on one call', (agent, stream) => {
  let session: Session
  beforeAll(async () => {
    session = await runAgent(agent, stream)
  })
  afterAll(async () => {
    await session?.page.close()
  })

  test('the agent finishes; the model accepted every request, each continuing the previous response', () => {
    expect(session.run.answer).toBe(ANSWER)
    expect(session.exchanges.map((e) => [e.status, e.error])).toEqual(Array.from({ length: LOOPS + 1 }, () => [200, undefined]))
    session.exchanges.forEach(({ body }, n) => {
      if (n > 0 || agent === 'agentsById') expect(JSON.parse(body).previous_response_id).toMatch(/^resp_/)
    })
  })

  test("each reminder reaches the model once, right after the output that made it due, in the page's own bytes", () => {
    expect(session.pageBodies).toHaveLength(session.exchanges.length)
    session.exchanges.forEach(({ body }, n) => {
      const own = session.pageBodies[n]!
      const due = DUE[n]
      if (due === undefined) {
        expect(body).toBe(own)
        return
      }
      // The page's body with one item more, after the output, and nothing else changed.
      const item = `,${reminderItem(due)}`
      expect(occurrences(body, due)).toBe(1)
      expect(body.replace(item, '')).toBe(own)
      const input = JSON.parse(body).input as unknown[]
      const outputs = input.map((entry) => (entry as { type?: string }).type === 'function_call_output')
      expect(input.findIndex((entry) => reminderTextOf(entry) === due)).toBe(outputs.lastIndexOf(true) + 1)
    })
    const all = session.exchanges.map((e) => e.body).join('\n')
    expect(occurrences(all, GENTLE)).toBe(1)
    expect(occurrences(all, DUE[5]!)).toBe(1)
  })

  test('no tool result was altered', () => {
    expect(session.run.results).toEqual(Array.from({ length: LOOPS }, () => 'TODO: the config loader ignores "threshold"\nsee loader.ts:42'))
    const outputs = session.exchanges.flatMap(({ body }) => (JSON.parse(body).input as { type?: string; output?: string }[]).filter((i) => i.type === 'function_call_output').map((i) => i.output))
    expect(outputs).toEqual(session.run.results)
  })

  test('the panel learns of one wire agent reached by responses-stateful, its six calls and where each reminder went', async () => {
    await expect.poll(async () => (await session.events()).filter((e) => e.type === 'request').length).toBe(LOOPS)
    const events = await session.events()
    expect(events.filter((e) => e.type === 'agent')).toEqual([
      { type: 'agent', at: expect.any(Number), agent: { id: 'wire:1', kind: 'wire', label: SYSTEM, format: 'openai-responses', reach: 'responses-stateful' } },
    ])
    expect(events.filter((e) => e.type === 'call').map((e) => e.type === 'call' && [e.seq, e.tool, e.args, e.count])).toEqual(
      [1, 2, 3, 4, 5, 6].map((n) => [n, 'read_file', '{"path":"notes.txt"}', n]),
    )
    expect(events.filter((e) => e.type === 'reminder').map((e) => e.type === 'reminder' && [e.seq, e.level, e.placement])).toEqual([
      [3, 'gentle', 'input[1]'],
      [5, 'detailed', 'input[1]'],
    ])
    expect(events.filter((e) => e.type === 'fault')).toEqual([])
  })

  test('the panel lists it with its reach and its chain', async () => {
    const panel = await stage.browser.openPanel(await stage.browser.tabId(session.page))
    const row = panel.getByTestId('agent-row').filter({ hasText: SYSTEM })
    await expect.poll(() => row.count()).toBe(1)
    expect(await row.getByTestId('agent-kind').textContent()).toBe('wire')
    expect(await row.getByTestId('agent-reach').textContent()).toBe('responses-stateful')
    await expect.poll(() => row.getByTestId('agent-count').textContent()).toBe(String(LOOPS))
    await panel.close()
  })
})
