// Repeated answers and waste through the built extension, against an agent on the real `openai`
// SDK (docs/zero-code.md, "Repeated answers" and "Waste"): with `repeatedText` in the stored
// config, the model that answers the same text after every "continue" gets the reminder in what
// reaches the server, and the panel's reminder events carry the tokens the mock's responses
// reported.
import type { Page } from 'playwright-core'
import { beforeAll, expect, test } from 'vitest'
import { RECOMMENDED_CONFIG } from '../../../engine/index.ts'
import type { PanelEvent } from '../../../extension/src/protocol/events.ts'
import { CONFIG_STORAGE_KEY } from '../../../extension/src/protocol/messages.ts'
import { openReportingPage, reportedEvents, wireOf } from '../support/page-events.ts'
import { useStage } from '../support/stage.ts'
import type { AnsweringRun } from './pages/answering.ts'
import { buildAgentPages } from './pages/build.ts'

const READ = { name: 'read_file', args: { path: 'notes.txt' } }
const REMINDER = 'You have given the same answer 2 times in a row. If the task is complete, say so once and stop; otherwise take a different step.'

const stage = useStage({ pages: () => buildAgentPages('answering') })

beforeAll(async () => {
  const worker = await stage.browser.worker()
  await worker.evaluate(([key, config]) => chrome.storage.local.set({ [key]: config }), [CONFIG_STORAGE_KEY, { ...RECOMMENDED_CONFIG, repeatedText: { after: 2 } }] as const)
})

interface Session {
  readonly page: Page
  readonly run: AnsweringRun
  readonly bodies: readonly { messages: { role: string; content: unknown }[] }[]
}

type GuardWindow = { __REPEAT_TOOL_GUARD__: { config: { repeatedText?: { after: number } } } }

/**
 * Runs the agent against a model that reads a file three times, then answers "Done." every time,
 * once the stored config has reached the page: every response of the run is read for waste.
 */
async function guardedSession(): Promise<Session> {
  const model = `same-answer-${Math.random().toString(36).slice(2)}`
  stage.mock.script(model, { steps: [[READ], [READ], [READ]], answer: 'Done.' })
  const page = await openReportingPage(stage.browser, `${stage.server.origin}/answering.html`, 'answering')
  await expect.poll(() => page.evaluate(() => (window as unknown as GuardWindow).__REPEAT_TOOL_GUARD__.config.repeatedText?.after)).toBe(2)
  const options = { model, system: 'You are a careful coding agent.', prompt: 'Why is the threshold ignored?', rounds: 3 }
  const run = await page.evaluate((o) => (window as unknown as { answering: { openaiChatContinued: (o: unknown) => Promise<AnsweringRun> } }).answering.openaiChatContinued(o), options)
  const bodies = stage.mock.exchanges.filter((e) => e.model === model).map((e) => JSON.parse(e.body) as Session['bodies'][number])
  return { page, run, bodies }
}

test('the reminder reaches the server right after the second identical answer, and the model accepted every request', async () => {
  const { page, run, bodies } = await guardedSession()
  expect(run.answers).toEqual(['Done.', 'Done.', 'Done.'])
  // Prompt, three steps (call and result), then answer, continue, answer, continue.
  const last = bodies.at(-1)!.messages
  const second = last.map((m) => m.role === 'assistant' && m.content === 'Done.').lastIndexOf(true)
  expect(last[second + 1]).toEqual({ role: 'user', content: REMINDER })
  expect(last[second + 2]).toEqual({ role: 'user', content: 'continue' })
  expect(last.filter((m) => m.content === REMINDER)).toHaveLength(1)
  expect(stage.mock.exchanges.filter((e) => bodies.some((b) => JSON.stringify(b) === e.body) && e.status !== 200)).toEqual([])
  await page.close()
})

test("the panel's reminder events carry the tokens of the responses after each run's first, as the mock reported them", async () => {
  const { page, run } = await guardedSession()
  type Reminder = Extract<PanelEvent, { type: 'reminder' }>
  const reminders = async () => wireOf(await reportedEvents(page)).filter((e): e is Reminder => e.type === 'reminder')
  await expect.poll(async () => (await reminders()).map((e) => e.level)).toEqual(['gentle', 'repeated-text'])
  const [gentle, answer] = await reminders()
  // Responses 1 to 3 made the three calls, 4 and 5 the first two answers. The answer reminder sits
  // after system, prompt, three steps (call and result), the gentle reminder, answer, continue, answer.
  expect(run.tokens).toHaveLength(6)
  expect(gentle).toMatchObject({ detector: 'repeat', count: 3, wasteTokens: run.tokens[1]! + run.tokens[2]!, wasteMs: expect.any(Number) })
  expect(answer).toMatchObject({ detector: 'repeated-text', count: 2, wasteTokens: run.tokens[4]!, placement: 'messages[12]' })
  await page.close()
})
