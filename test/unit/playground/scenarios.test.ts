import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
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
    expect(lead.entries.map((e) => e.kind)).toEqual(['system', 'prompt', 'assistant', 'tool-result', 'tool-result', 'tool-result', 'reminder', 'assistant', 'tool-result', 'tool-result', 'reminder', 'assistant'])
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
