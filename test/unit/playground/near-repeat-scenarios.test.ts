// The scenarios of the loops exact matching misses (near repeats, error runs, volatile ids, a
// repeated answer): each through the real loop and engine, with the default and with its preset.
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import type { GuardConfigInput } from '../../../engine/index.ts'
import type { Agent } from '../../../playground/agent/agent.ts'
import { findPreset, presetConfig } from '../../../playground/ui/guard-presets.ts'
import { reminderMarks, runScenario, stubScriptedFetch, toolNames } from './scripted-run.ts'

beforeEach(() => void stubScriptedFetch())
afterEach(() => vi.unstubAllGlobals())

const options = (id: string): GuardConfigInput => presetConfig(findPreset(id)!)
const results = (agent: Agent) => agent.entries.flatMap((e) => (e.kind === 'tool-result' ? [e] : []))
const reminders = (agent: Agent) => agent.entries.flatMap((e) => (e.kind === 'reminder' ? [e] : []))
const sentArguments = (agent: Agent) =>
  agent.entries.flatMap((e) => (e.kind === 'assistant' ? (e.message.tool_calls ?? []).map((c) => JSON.parse(c.function.arguments) as Record<string, unknown>) : []))

describe('the near-repeat scenarios: the default stays silent, one option catches the loop', () => {
  test('rephrase: eight wordings of one search with the default; similar catches the third and the model reads the code', async () => {
    const plain = (await runScenario('rephrase', { config: options('default') })).lead
    expect(toolNames(plain)).toEqual(Array(8).fill('grep'))
    expect(new Set(sentArguments(plain).map((a) => a.pattern)).size).toBe(8)
    expect(results(plain).every((r) => r.message.content.startsWith('No matches for /'))).toBe(true)
    expect(reminderMarks(plain)).toEqual([])
    expect(plain.answer).toContain('in 8 ways and found none')

    const caught = (await runScenario('rephrase', { config: options('similar') })).lead
    expect(toolNames(caught)).toEqual(['grep', 'grep', 'grep', 'read_file'])
    expect(reminderMarks(caught)).toEqual(['3:similar'])
    expect(reminders(caught)[0]).toMatchObject({ summary: 'grep ≈ × 3' })
    expect(reminders(caught)[0]!.message.content).toContain('- similar_calls: 3\n- last_arguments: {"ignoreCase":true,"pattern":"configure the date format"}')
    expect(caught.answer).toMatch(/^There is no setting: formatDate in src\/format\.ts/)
  })

  test('flaky-tool: six failing fetches with the default; errorRuns catches the third and the model answers from package.json', async () => {
    const plain = (await runScenario('flaky-tool', { config: options('default') })).lead
    expect(toolNames(plain)).toEqual(Array(6).fill('fetch_url'))
    expect(new Set(sentArguments(plain).map((a) => a.url)).size).toBe(6)
    expect(results(plain).every((r) => r.isError && r.message.content.includes('getaddrinfo EAI_AGAIN'))).toBe(true)
    expect(reminderMarks(plain)).toEqual([])
    expect(plain.answer).toContain('all 6 URLs failed')

    const caught = (await runScenario('flaky-tool', { config: options('error-runs') })).lead
    expect(toolNames(caught)).toEqual(['fetch_url', 'fetch_url', 'fetch_url', 'read_file'])
    expect(reminderMarks(caught)).toEqual(['3:error-run'])
    expect(reminders(caught)[0]).toMatchObject({ summary: 'fetch_url errors × 3' })
    expect(reminders(caught)[0]!.message.content).toContain(
      '- consecutive_errors: 3\n- last_error: Error: request to https://api.github.com/repos/tiny-dates/tiny-dates/releases/latest failed, reason: getaddrinfo EAI_AGAIN api.github.com',
    )
    expect(caught.answer).toMatch(/^package\.json says 1\.4\.0, but I cannot check npm/)
  })

  test('volatile-id: eight checks, each with a new requestId, with the default; ignoring requestId makes them one repeat, caught at the third', async () => {
    const plain = (await runScenario('volatile-id', { config: options('default') })).lead
    expect(toolNames(plain)).toEqual(Array(8).fill('ci_status'))
    const sent = sentArguments(plain)
    expect(new Set(sent.map((a) => a.requestId)).size).toBe(8)
    expect(new Set(sent.map(({ requestId, ...rest }) => JSON.stringify(rest)))).toEqual(new Set(['{"pipeline":"nightly"}']))
    expect(new Set(results(plain).map((r) => r.message.content)).size).toBe(1)
    expect(reminderMarks(plain)).toEqual([])
    expect(plain.answer).toMatch(/^After 8 checks nothing has changed/)

    const caught = (await runScenario('volatile-id', { config: options('volatile-keys') })).lead
    expect(toolNames(caught)).toEqual(['ci_status', 'ci_status', 'ci_status'])
    expect(reminderMarks(caught)).toEqual(['3:gentle'])
    expect(reminders(caught)[0]).toMatchObject({ summary: 'ci_status × 3' })
    expect(caught.answer).toMatch(/^I was repeating the same check/)
  })

  test('same-answer: every follow-up gets the first answer again, word for word, and the guard on the page has nothing to count', async () => {
    const session = await runScenario('same-answer', { config: options('default') })
    await session.send('Tell me more.')
    await session.send('Anything else I should know?')
    const { lead } = session
    const answers = lead.entries.flatMap((e) => (e.kind === 'assistant' && !e.message.tool_calls ? [e.message.content] : []))
    expect(answers).toHaveLength(3)
    expect(new Set(answers).size).toBe(1)
    expect(toolNames(lead)).toEqual(['read_file'])
    expect(reminderMarks(lead)).toEqual([])
  })
})

describe('each new preset changes only the scenarios it is for', () => {
  const SCENARIO_IDS = [
    'replay-5',
    'bookkeeping',
    'subagent',
    'parallel',
    'denied',
    'polling',
    'stubborn',
    'key-order',
    'ping-pong',
    'rotation',
    'paging',
    'runaway',
    'rephrase',
    'volatile-id',
    'flaky-tool',
    'same-answer',
  ]
  const outline = async (id: string, preset: string) => {
    const session = await runScenario(id, { config: options(preset) })
    return session.agents.map((agent) => ({ tools: toolNames(agent), reminders: reminderMarks(agent) }))
  }
  const changedBy = async (preset: string) => {
    const changed: string[] = []
    for (const id of SCENARIO_IDS) if (JSON.stringify(await outline(id, preset)) !== JSON.stringify(await outline(id, 'default'))) changed.push(id)
    return changed
  }

  test.each([
    // paging's pages differ by one digit, and ci_status calls by their requestId: near repeats too.
    ['similar', ['paging', 'rephrase', 'volatile-id']],
    // runaway's failing test runs go on after the repeat reminders: the 6th is the second error run.
    ['error-runs', ['runaway', 'flaky-tool']],
    ['volatile-keys', ['volatile-id']],
    // The page API never sees the model's answers: only zero-code mode reads them.
    ['repeated-text', []],
  ])('%s changes %j', async (preset, expected) => {
    expect(await changedBy(preset)).toEqual(expected)
  })
})
