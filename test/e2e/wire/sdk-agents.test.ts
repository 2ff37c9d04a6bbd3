// Zero-code mode against agents built on the real SDKs, in Chromium with the built extension: the
// agents know nothing of the guard, the mock model loops on one call and rejects any request that
// breaks its format's rules, and the reminders must land at their exact places, once, with the
// earlier part of every request unchanged.
import { beforeAll, describe, expect, test } from 'vitest'
import type { PanelEvent } from '../../../extension/src/protocol/events.ts'
import { occurrences, reminderTextOf, valueAt } from '../../fixtures/wire/placements.ts'
import { detailed, GENTLE } from '../../fixtures/wire/reminders.ts'
import type { Exchange } from '../support/mock-llm.ts'
import { openReportingPage, reportedEvents, wireOf } from '../support/page-events.ts'
import { useStage } from '../support/stage.ts'
import type { AgentName, AgentOptions, AgentRun } from './pages/agents.ts'
import { expectAppendOnly, expectRemindersOnceInPlace } from './expect-sticky.ts'
import { buildAgentPages } from './pages/build.ts'

const stage = useStage({ pages: () => buildAgentPages() })

const READ = { name: 'read_file', args: { path: 'notes.txt' } }
const DETAILED = detailed('read_file', 5, '{"path":"notes.txt"}')

interface Session {
  readonly run: AgentRun
  /** The model requests of this run, as the mock received them. */
  readonly exchanges: Exchange[]
  /** The panel events the page sent towards the panel. */
  readonly events: () => Promise<PanelEvent[]>
}

/** Opens the agent page, listens to what the page reports, and runs `agent` against a looping model. */
async function runAgent(agent: AgentName, loops = 6): Promise<Session> {
  const model = `loop-${agent}-${Math.random().toString(36).slice(2)}`
  stage.mock.script(model, { steps: Array.from({ length: loops }, () => [READ]), answer: 'The loader ignores "threshold".' })
  const page = await openReportingPage(stage.browser, `${stage.server.origin}/agents.html`, 'agents')
  const options: AgentOptions = { model, system: 'You are a careful coding agent.', prompt: 'Why is the threshold ignored?' }
  const run = await page.evaluate(([name, o]) => (window as unknown as { agents: Record<string, (o: AgentOptions) => Promise<AgentRun>> }).agents[name]!(o), [agent, options] as const)
  return { run, exchanges: stage.mock.exchanges.filter((e) => e.model === model), events: () => reportedEvents(page) }
}

const PLACES: Readonly<Record<string, { gentle: string; detailed: string; format: string }>> = {
  openaiChat: { gentle: 'messages[8]', detailed: 'messages[13]', format: 'openai-chat' },
  openaiResponses: { gentle: 'input[7]', detailed: 'input[12]', format: 'openai-responses' },
  anthropic: { gentle: 'messages[6].content[1]', detailed: 'messages[10].content[1]', format: 'anthropic' },
  gemini: { gentle: 'contents[7]', detailed: 'contents[12]', format: 'gemini' },
  aiSdkResponses: { gentle: 'input[8]', detailed: 'input[13]', format: 'openai-responses' },
  aiSdkChat: { gentle: 'messages[8]', detailed: 'messages[13]', format: 'openai-chat' },
}

describe.each(Object.keys(PLACES) as AgentName[])('%s, looping six times on one call', (agent) => {
  let session: Session
  const places = PLACES[agent]!
  beforeAll(async () => {
    session = await runAgent(agent)
  })

  test('the agent finishes; the model accepted every request (no format rule broken)', () => {
    expect(session.run.answer).toBe('The loader ignores "threshold".')
    expect(session.exchanges.map((e) => [e.status, e.error])).toEqual(Array.from({ length: 7 }, () => [200, undefined]))
  })

  test('the gentle reminder follows the third result and the detailed one the fifth, in every later request, once', () => {
    expectRemindersOnceInPlace(session.exchanges, places, { gentle: GENTLE, detailed: DETAILED })
  })

  test('append-only: each request starts with the whole history the previous one sent', () => {
    expectAppendOnly(session.exchanges)
  })

  test('no tool result was altered', () => {
    const last = session.exchanges.at(-1)!.body
    expect(session.run.results).toHaveLength(6)
    expect(occurrences(last, session.run.results[0]!)).toBe(6)
  })

  test('the panel learns of one wire agent, its six calls and where each reminder went', async () => {
    await expect.poll(async () => (await session.events()).filter((e) => e.type === 'request').length).toBe(6)
    const events = await session.events()
    const wire = wireOf(events)
    expect(wire.filter((e) => e.type === 'agent')).toEqual([
      { type: 'agent', at: expect.any(Number), agent: { id: 'wire:1', kind: 'wire', label: 'You are a careful coding agent.', format: places.format, reach: 'fetch' } },
    ])
    expect(wire.filter((e) => e.type === 'call').map((e) => e.type === 'call' && [e.seq, e.tool, e.args, e.count])).toEqual([1, 2, 3, 4, 5, 6].map((n) => [n, 'read_file', '{"path":"notes.txt"}', n]))
    expect(wire.filter((e) => e.type === 'reminder').map((e) => e.type === 'reminder' && [e.seq, e.level, e.placement, e.text])).toEqual([
      [3, 'gentle', places.gentle, GENTLE],
      [5, 'detailed', places.detailed, DETAILED],
    ])
    expect(events.filter((e) => e.type === 'fault')).toEqual([])
  })
})

describe('an agent that uses the page API itself', () => {
  let session: Session
  beforeAll(async () => {
    session = await runAgent('openaiChatWithHook')
  })

  test('gets each reminder once: its own, where it put it', () => {
    expect(session.exchanges.map((e) => e.status)).toEqual(Array.from({ length: 7 }, () => 200))
    session.exchanges.forEach(({ body }, n) => {
      expect(occurrences(body, GENTLE)).toBe(n >= 3 ? 1 : 0)
      expect(occurrences(body, DETAILED)).toBe(n >= 5 ? 1 : 0)
    })
    const last = JSON.parse(session.exchanges.at(-1)!.body)
    expect(reminderTextOf(valueAt(last, 'messages[8]'))).toBe(GENTLE)
    expect(reminderTextOf(valueAt(last, 'messages[13]'))).toBe(DETAILED)
  })

  test("is shown once, as the page's agent, never as a wire agent", async () => {
    await expect.poll(async () => (await session.events()).filter((e) => e.type === 'reminder').length).toBe(2)
    const events = await session.events()
    expect(events.filter((e) => e.type === 'agent').map((e) => e.type === 'agent' && [e.agent.kind, e.agent.label])).toEqual([['hook', 'hooked agent']])
    expect(events.some((e) => 'agentId' in e && e.agentId.startsWith('wire:'))).toBe(false)
  })
})
