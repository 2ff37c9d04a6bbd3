import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import type { GuardConfigInput } from '../../../engine/index.ts'
import type { Agent } from '../../../playground/agent/agent.ts'
import { findPreset, presetConfig } from '../../../playground/ui/guard-presets.ts'
import { reminderMarks, runScenario, stubScriptedFetch, toolNames } from './scripted-run.ts'

beforeEach(() => void stubScriptedFetch())
afterEach(() => vi.unstubAllGlobals())

describe('scripted scenarios through the real loop and engine', () => {
  test('replay-5: gentle after the third result, detailed after the fifth, then an answer', async () => {
    const { lead } = await runScenario('replay-5')
    expect(lead.status).toBe('answered')
    expect(toolNames(lead)).toEqual(Array(5).fill('read_file'))
    expect(reminderMarks(lead)).toEqual(['3:gentle', '5:detailed'])
    const detailed = lead.entries.filter((e) => e.kind === 'reminder')[1]!
    expect(detailed.message.content).toContain('- tool: read_file\n- consecutive_calls: 5\n- arguments: {"path":"src/format.ts"}')
    expect(detailed).toMatchObject({ via: 'playground', summary: 'read_file × 5' })
  })

  test('bookkeeping: todo_write is transparent with the recommended config', async () => {
    const { lead } = await runScenario('bookkeeping')
    expect(toolNames(lead)).toEqual(['grep', 'todo_write', 'grep', 'todo_write', 'grep', 'todo_write', 'grep', 'todo_write', 'grep', 'todo_write'])
    expect(reminderMarks(lead)).toEqual(['5:gentle', '9:detailed'])
  })

  test('bookkeeping: without the exclude, todo_write breaks every run', async () => {
    const { lead } = await runScenario('bookkeeping', { config: { exclude: [] } })
    expect(reminderMarks(lead)).toEqual([])
  })

  test('subagent: interleaved steps, separate chains', async () => {
    const session = await runScenario('subagent')
    const [lead, explorer] = session.agents
    expect(explorer!.parent).toBe(lead)
    expect(toolNames(lead!)).toEqual(['spawn_subagent', 'grep', 'grep', 'grep', 'wait_subagent'])
    expect(reminderMarks(lead!)).toEqual(['4:gentle'])
    expect(toolNames(explorer!)).toEqual(Array(5).fill('grep'))
    expect(reminderMarks(explorer!)).toEqual(['3:gentle', '5:detailed'])
    expect(lead!.answer).toContain('The explorer reports: formatDate is defined in src/format.ts')
  })

  test('parallel: reminders follow all results of the step', async () => {
    const { lead } = await runScenario('parallel')
    expect(lead.entries.map((e) => e.kind)).toEqual([
      'system',
      'prompt',
      'assistant',
      'tool-result',
      'tool-result',
      'tool-result',
      'reminder',
      'assistant',
      'tool-result',
      'tool-result',
      'reminder',
      'assistant',
    ])
    expect(reminderMarks(lead)).toEqual(['3:gentle', '5:detailed'])
  })

  test('denied: refused calls count', async () => {
    const { lead } = await runScenario('denied')
    const results = lead.entries.filter((e) => e.kind === 'tool-result')
    expect(results).toHaveLength(5)
    expect(results.every((r) => r.denied && r.isError)).toBe(true)
    expect(reminderMarks(lead)).toEqual(['3:gentle', '5:detailed'])
    expect(lead.answer).toContain('cannot delete build/')
  })

  test('denied: allowed, the first call succeeds', async () => {
    const session = await runScenario('denied', { allowDelete: true })
    expect(toolNames(session.lead)).toEqual(['delete_path'])
    expect(session.lead.answer).toBe('Done: Deleted build (2 files)')
    expect(session.workspace.project.list('.')).not.toContain('build/')
  })

  test('polling: reminded at the third check, polls on until the pipeline passes', async () => {
    const { lead } = await runScenario('polling')
    expect(toolNames(lead)).toEqual(Array(4).fill('run_tests'))
    expect(reminderMarks(lead)).toEqual(['3:gentle'])
    expect(lead.answer).toContain('passed after 4 checks')
  })

  test('stubborn: with the guard it changes approach after the reminder', async () => {
    const session = await runScenario('stubborn')
    expect(toolNames(session.lead)).toEqual(['run_tests', 'run_tests', 'run_tests', 'read_file', 'write_file', 'run_tests'])
    expect(reminderMarks(session.lead)).toEqual(['3:gentle'])
    expect(session.lead.status).toBe('answered')
    expect(session.workspace.project.read('src/format.ts')).toContain("padStart(2, '0')")
  })

  test('stubborn: without the guard it runs into the step limit', async () => {
    const { lead } = await runScenario('stubborn', { guard: false, stepLimit: 8 })
    expect(lead.status).toBe('step-limit')
    expect(toolNames(lead)).toEqual(Array(8).fill('run_tests'))
    expect(reminderMarks(lead)).toEqual([])
  })

  test('key-order: shuffled keys are one run, quoted sorted', async () => {
    const { lead } = await runScenario('key-order')
    expect(reminderMarks(lead)).toEqual(['3:gentle', '5:detailed'])
    const detailed = lead.entries.filter((e) => e.kind === 'reminder')[1]!
    expect(detailed.message.content).toContain('- arguments: {"ignoreCase":true,"path":"src","pattern":"todo"}')
    const sent = lead.entries.flatMap((e) => (e.kind === 'assistant' ? (e.message.tool_calls ?? []).map((c) => c.function.arguments) : []))
    expect(new Set(sent).size).toBe(5)
  })
})

describe('the detector scenarios: one option makes the difference', () => {
  const options = (id: string): GuardConfigInput => presetConfig(findPreset(id)!)
  const results = (agent: Agent) => agent.entries.flatMap((e) => (e.kind === 'tool-result' ? [e] : []))

  test('ping-pong: the default guard never reminds; cycles catches it after two rounds', async () => {
    const plain = (await runScenario('ping-pong', { config: options('default') })).lead
    expect(toolNames(plain)).toEqual(Array(10).fill('read_file'))
    expect(reminderMarks(plain)).toEqual([])
    expect(plain.answer).toContain('I give up')
    const caught = (await runScenario('ping-pong', { config: options('cycles') })).lead
    expect(reminderMarks(caught)).toEqual(['4:cycle'])
    expect(caught.entries.find((e) => e.kind === 'reminder')).toMatchObject({ summary: 'cycle × 2' })
    expect(caught.answer).toContain('back and forth')
  })

  test('rotation: a three-call cycle is caught after its second round only with cycles', async () => {
    const plain = (await runScenario('rotation', { config: options('default') })).lead
    expect(toolNames(plain)).toHaveLength(12)
    expect(reminderMarks(plain)).toEqual([])
    const caught = (await runScenario('rotation', { config: options('cycles') })).lead
    expect(toolNames(caught)).toEqual(['grep', 'read_file', 'read_file', 'grep', 'read_file', 'read_file'])
    expect(reminderMarks(caught)).toEqual(['6:cycle'])
    expect(caught.entries.find((e) => e.kind === 'reminder')!.message.content).toContain('- cycle: grep -> read_file -> read_file')
  })

  test('paging: a new page each call is a run only when grep counts by tool', async () => {
    const plain = (await runScenario('paging', { config: options('default') })).lead
    expect(reminderMarks(plain)).toEqual([])
    expect(plain.answer).toMatch(/^I read all \d+ pages/)
    expect(toolNames(plain).length).toBeGreaterThan(3)
    const caught = (await runScenario('paging', { config: options('per-tool') })).lead
    expect(toolNames(caught)).toEqual(['grep', 'grep', 'grep'])
    expect(reminderMarks(caught)).toEqual(['3:same-tool'])
    expect(caught.answer).toContain('I was paging')
  })

  test('runaway: advice alone runs into the step limit; stopAfter blocks the sixth run and the model stops', async () => {
    const plain = (await runScenario('runaway', { config: options('default') })).lead
    expect(plain.status).toBe('step-limit')
    expect(reminderMarks(plain)).toEqual(['3:gentle', '5:detailed', '8:detailed'])
    const stopped = (await runScenario('runaway', { config: options('stop') })).lead
    expect(stopped.status).toBe('answered')
    const all = results(stopped)
    expect(all).toHaveLength(6)
    expect(all.slice(0, 5).every((r) => !r.denied)).toBe(true)
    expect(all[5]).toMatchObject({ denied: true, isError: true })
    expect(all[5]!.message.content).toBe('Blocked by repeat-tool-guard: run_tests was already called 5 times in a row with identical arguments (stopAfter: 5). Choose a different action.')
    expect(reminderMarks(stopped)).toEqual(['3:gentle', '5:detailed'])
    expect(stopped.answer).toContain('The guard stopped me')
  })

  test('polling: resultAware sees the progress, so no false alarm', async () => {
    const { lead } = await runScenario('polling', { config: options('result-aware') })
    expect(toolNames(lead)).toEqual(Array(4).fill('run_tests'))
    expect(reminderMarks(lead)).toEqual([])
    expect(lead.answer).toContain('passed after 4 checks')
  })
})
