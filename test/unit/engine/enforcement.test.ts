import { describe, expect, it } from 'vitest'
import { createRepeatToolGuard } from '../../../engine/index.ts'
import { ofType, recordEvents } from './support/events.ts'
import { firedAt } from './support/fired.ts'
import { oneCallPerStep, runScenario, times } from './support/scenario.ts'
import { blockText } from './support/texts.ts'

const GREP = ['grep', { pattern: 'TODO', path: 'src' }] as const

describe('preExecute and stopAfter through an agent loop', () => {
  it('blocks the call that would make a run longer than stopAfter; the blocked call counts as denied', async () => {
    const { agent, events } = await runScenario(oneCallPerStep(times(6, GREP)), { stopAfter: 3 })
    const results = agent.history.filter((m) => m.role === 'tool').map((m) => m.content[0])
    expect(results.map((r) => r.output)).toEqual([...times(3, 'src/app.ts:12: // TODO: handle errors'), blockText('grep', 3, 3), blockText('grep', 4, 3), blockText('grep', 5, 3)])
    expect(ofType(events, 'call').map(({ count, denied }) => [count, denied])).toEqual([
      [1, false],
      [2, false],
      [3, false],
      [4, true],
      [5, true],
      [6, true],
    ])
    expect(ofType(events, 'blocked').map(({ agentId, tool, count, feedback }) => ({ agentId, tool, count, feedback }))).toEqual(
      [3, 4, 5].map((count) => ({ agentId: 1, tool: 'grep', count, feedback: blockText('grep', count, 3) })),
    )
    // Reminders are unchanged by enforcement: the denied calls still reach 5.
    expect(firedAt(agent.history)).toEqual([
      [3, 'grep × 3'],
      [5, 'grep × 5'],
    ])
  })

  it('keeps blocking a result-aware run: the blocked call, denied, does not look like a new result', async () => {
    const { agent, events } = await runScenario(oneCallPerStep(times(6, GREP)), { stopAfter: 3, resultAware: true })
    const outputs = agent.history.filter((m) => m.role === 'tool').map((m) => m.content[0].output)
    expect(outputs.slice(3)).toEqual([blockText('grep', 3, 3), blockText('grep', 4, 3), blockText('grep', 5, 3)])
    expect(ofType(events, 'chain-reset')).toEqual([])
  })

  it('never blocks without stopAfter', async () => {
    const { agent, events } = await runScenario(oneCallPerStep(times(9, GREP)))
    expect(agent.history.filter((m) => m.role === 'tool').every((m) => !m.content[0].isError)).toBe(true)
    expect(ofType(events, 'blocked')).toEqual([])
  })

  it('lets a different call through, and blocks any call of the tool with countBy: tool', async () => {
    const script = oneCallPerStep([GREP, GREP, ['grep', { pattern: 'FIXME', path: 'src' }], GREP, GREP, ['read_file', { path: 'a' }]])
    const byCall = await runScenario(script, { stopAfter: 2 })
    expect(ofType(byCall.events, 'blocked').map((e) => e.count)).toEqual([])
    const byTool = await runScenario(script, { stopAfter: 2, countBy: 'tool' })
    expect(ofType(byTool.events, 'blocked').map((e) => [e.tool, e.count])).toEqual([
      ['grep', 2],
      ['grep', 3],
      ['grep', 4],
    ])
  })
})

describe('preExecute', () => {
  it('changes no chain and emits nothing but the block', () => {
    const guard = createRepeatToolGuard({ stopAfter: 2 })
    const events = recordEvents(guard)
    const agent = {}
    const call = { agent, name: 'grep', arguments: { q: 1 } }
    expect(guard.preExecute(call)).toEqual({ kind: 'continue' })
    expect(events).toEqual([])
    guard.observe(call)
    guard.observe(call)
    const before = guard.snapshot()
    const decision = guard.preExecute(call)
    expect(decision).toEqual({ kind: 'block', feedback: blockText('grep', 2, 2) })
    expect(Object.isFrozen(decision)).toBe(true)
    expect(guard.preExecute(call)).toEqual(decision)
    expect(guard.snapshot()).toEqual(before)
    expect(events.slice(3).map((e) => e.type)).toEqual(['blocked', 'blocked'])
  })

  it('continues for calls without an agent, unseen agents and untracked tools', () => {
    const guard = createRepeatToolGuard({ stopAfter: 2, exclude: ['todo_write'] })
    const events = recordEvents(guard)
    const agent = {}
    const todo = { agent, name: 'todo_write', arguments: [] }
    guard.observe(todo)
    guard.observe(todo)
    guard.observe(todo)
    expect(guard.preExecute({ name: 'grep' })).toEqual({ kind: 'continue' })
    expect(guard.preExecute({ agent: {}, name: 'grep' })).toEqual({ kind: 'continue' })
    expect(guard.preExecute(todo)).toEqual({ kind: 'continue' })
    expect(ofType(events, 'agent-seen')).toHaveLength(1)
    expect(ofType(events, 'blocked')).toEqual([])
  })

  it('throws a TypeError on misuse, and turns any other failure into a fault and continue', () => {
    const guard = createRepeatToolGuard({ stopAfter: 2 })
    const events = recordEvents(guard)
    expect(() => guard.preExecute(null as never)).toThrow(TypeError)
    expect(() => guard.preExecute({ name: '' })).toThrow('repeat-tool-guard: the tool execution needs a non-empty string name, got an empty string')
    const agent = {}
    guard.observe({ agent, name: 'grep', arguments: 1 })
    guard.observe({ agent, name: 'grep', arguments: 1 })
    const hostile = {
      agent,
      name: 'grep',
      get arguments(): never {
        throw new Error('no arguments today')
      },
    }
    // A throwing getter is the page's object failing, not misuse: the call goes on.
    expect(guard.preExecute(hostile)).toEqual({ kind: 'continue' })
    expect(ofType(events, 'fault').map((e) => e.message)).toEqual(['preExecute: no arguments today'])
  })
})
