import { describe, expect, it } from 'vitest'
import { createRepeatToolGuard, RECOMMENDED_CONFIG } from '../../../engine/index.ts'
import { createAgent, runAgent, scriptedModel } from './support/agent-loop.ts'
import { ofType, recordEvents } from './support/events.ts'
import { firedAt, textsIn } from './support/fired.ts'
import { oneCallPerStep, runScenario, tools } from './support/scenario.ts'
import { cycleText, GENTLE } from './support/texts.ts'

const A = ['grep', { pattern: 'TODO', path: 'src' }] as const
const B = ['read_file', { path: 'src/app.ts' }] as const
const C = ['write_file', { path: 'src/app.ts', content: 'x' }] as const
const TODO = ['todo_write', { todos: ['a'] }] as const
const CALL_A = ['grep', '{"path":"src","pattern":"TODO"}'] as const
const CALL_B = ['read_file', '{"path":"src/app.ts"}'] as const
const CALL_C = ['write_file', '{"content":"x","path":"src/app.ts"}'] as const
const CYCLES = { cycles: { maxPeriod: 3, repeats: 3 } }

const repeat = <T>(n: number, block: readonly T[]): T[] => Array.from({ length: n }, () => block).flat()

describe('cycles through an agent loop', () => {
  it('fires after the 6th call of A B A B A B', async () => {
    const { agent, events } = await runScenario(oneCallPerStep(repeat(3, [A, B])), CYCLES)
    expect(firedAt(agent.history)).toEqual([[6, 'cycle × 3']])
    expect(textsIn(agent.history)).toEqual([cycleText(3, [CALL_A, CALL_B])])
    expect(ofType(events, 'reminder').map(({ tool, count, level, detector }) => ({ tool, count, level, detector }))).toEqual([{ tool: 'read_file', count: 3, level: 'cycle', detector: 'cycle' }])
  })

  it('fires after the 9th call of A B C A B C A B C', async () => {
    const { agent } = await runScenario(oneCallPerStep(repeat(3, [A, B, C])), CYCLES)
    expect(firedAt(agent.history)).toEqual([[9, 'cycle × 3']])
    expect(textsIn(agent.history)).toEqual([cycleText(3, [CALL_A, CALL_B, CALL_C])])
  })

  it('fires at repeats, twice and three times that, then stays silent', async () => {
    const { agent } = await runScenario(oneCallPerStep(repeat(12, [A, B])), { cycles: { maxPeriod: 2, repeats: 2 } })
    expect(firedAt(agent.history)).toEqual([
      [4, 'cycle × 2'],
      [8, 'cycle × 4'],
      [12, 'cycle × 6'],
    ])
  })

  it('sends nothing for the same loops without cycles', async () => {
    const { agent } = await runScenario(oneCallPerStep(repeat(6, [A, B, C])))
    expect(firedAt(agent.history)).toEqual([])
  })

  it('never calls one repeated call a cycle: an exact repeat is the chain’s', async () => {
    const { agent, events } = await runScenario(oneCallPerStep(repeat(9, [A])), CYCLES)
    expect(firedAt(agent.history)).toEqual([
      [3, 'grep × 3'],
      [5, 'grep × 5'],
      [8, 'grep × 8'],
    ])
    expect(ofType(events, 'reminder').map((e) => e.detector)).toEqual(['repeat', 'repeat', 'repeat'])
  })

  it('finds a cycle whose block holds an exact repeat (A A B), and the exact repeat ends a cycle it breaks', async () => {
    const inside = await runScenario(oneCallPerStep(repeat(3, [A, A, B])), { ...CYCLES, thresholds: [4] })
    expect(firedAt(inside.agent.history)).toEqual([[9, 'cycle × 3']])
    expect(textsIn(inside.agent.history)).toEqual([cycleText(3, [CALL_A, CALL_A, CALL_B])])
    // A B A B A, then A again: the pattern of period 2 breaks one call short of its third period.
    const breaking = await runScenario(oneCallPerStep([A, B, A, B, A, A, B, A, B]), { ...CYCLES, thresholds: [4] })
    expect(firedAt(breaking.agent.history)).toEqual([])
  })

  it('sends one reminder when a run threshold and a cycle period complete on the same call: the run’s', async () => {
    // B A A B A A: the 6th call completes two periods of (B A A) and a run of two A.
    const { agent, events } = await runScenario(oneCallPerStep([B, A, A, B, A, A]), { cycles: { maxPeriod: 3, repeats: 2 }, thresholds: [2] })
    expect(firedAt(agent.history)).toEqual([
      [3, 'grep × 2'],
      [6, 'grep × 2'],
    ])
    expect(textsIn(agent.history)).toEqual([GENTLE, GENTLE])
    expect(ofType(events, 'reminder').map((e) => e.detector)).toEqual(['repeat', 'repeat'])
  })

  it('ends a cycle run on a call that breaks it, and counts a later cycle afresh', async () => {
    const script = oneCallPerStep([...repeat(3, [A, B]), C, ...repeat(3, [A, B])])
    const { agent } = await runScenario(script, CYCLES)
    expect(firedAt(agent.history)).toEqual([
      [6, 'cycle × 3'],
      [13, 'cycle × 3'],
    ])
  })

  it('looks through untracked calls inside a cycle', async () => {
    const script = oneCallPerStep(repeat(3, [A, TODO, B, TODO]))
    const { agent } = await runScenario(script, { ...RECOMMENDED_CONFIG, ...CYCLES })
    // The 11th call, the third B, completes the third period.
    expect(firedAt(agent.history)).toEqual([[11, 'cycle × 3']])
    expect(textsIn(agent.history)).toEqual([cycleText(3, [CALL_A, CALL_B])])
  })

  it('lets a tracked call in between break the cycle', async () => {
    const { agent } = await runScenario(oneCallPerStep(repeat(3, [A, TODO, B, TODO])), CYCLES)
    expect(firedAt(agent.history)).toEqual([])
  })

  it('forgets the cycle window on a user prompt', async () => {
    const guard = createRepeatToolGuard(CYCLES)
    const agent = createAgent('main')
    const go = (calls: Parameters<typeof oneCallPerStep>[0]) => runAgent({ guard, agent, tools, prompt: 'Go on.', model: scriptedModel(oneCallPerStep(calls)) })
    await go([A, B, A, B])
    await go([A, B])
    expect(firedAt(agent.history)).toEqual([])
    await go(repeat(3, [A, B]))
    expect(firedAt(agent.history)).toEqual([[12, 'cycle × 3']])
  })

  it('keeps each agent’s window apart, and quotes each call under the preview cap', async () => {
    const guard = createRepeatToolGuard({ cycles: { maxPeriod: 2, repeats: 2 }, argumentsPreviewChars: 8 })
    const events = recordEvents(guard)
    const one = {}
    const two = {}
    for (const [name, args] of [A, B, A]) {
      guard.observe({ agent: one, name, arguments: args })
      guard.observe({ agent: two, name, arguments: args })
    }
    const message = guard.observe({ agent: one, name: B[0], arguments: B[1] })
    expect(message?.content[0].text).toBe(
      cycleText(2, [
        ['grep', '{"path":… (+23 more chars)'],
        ['read_file', '{"path":… (+13 more chars)'],
      ]),
    )
    expect(message?.source.summary).toBe('cycle × 2')
    expect(ofType(events, 'reminder').map((e) => e.agentId)).toEqual([1])
  })

  it('counts a cycle of tools with countBy: tool, and of results with resultAware', async () => {
    const byTool = await runScenario(oneCallPerStep([A, B, ['grep', { q: 1 }], B, ['grep', { q: 2 }], B]), { ...CYCLES, countBy: 'tool' })
    expect(firedAt(byTool.agent.history)).toEqual([[6, 'cycle × 3']])
    let reads = 0
    const changing = { ...tools, read_file: () => `version ${++reads}` }
    const byResult = await runScenario(oneCallPerStep(repeat(3, [A, B])), { ...CYCLES, resultAware: true }, { tools: changing })
    expect(firedAt(byResult.agent.history)).toEqual([])
  })
})

describe('cycle windows across a new config', () => {
  it('starts every agent’s window again with a new config, as its detector is a new one', () => {
    const guard = createRepeatToolGuard({ cycles: { maxPeriod: 2, repeats: 2 } })
    const agent = { name: 'a' }
    const call = ([name, args]: typeof A | typeof B) => guard.observe({ agent, name, arguments: args })?.content[0].text
    // A B A, then the same detector again: B would complete A B A B.
    expect([A, B, A].map(call)).toEqual([undefined, undefined, undefined])
    guard.configure({ cycles: { maxPeriod: 2, repeats: 2 } })
    expect([B, A, B].map(call)).toEqual([undefined, undefined, undefined])
    expect(call(A)).toBe(cycleText(2, [CALL_B, CALL_A]))
  })
})
