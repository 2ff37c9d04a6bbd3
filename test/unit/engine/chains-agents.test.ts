// Chains through an agent loop: parallel and denied calls, subagents, dropped agents, prompts, and
// calls without an agent.
import { describe, expect, it } from 'vitest'
import { createRepeatToolGuard } from '../../../engine/index.ts'
import { createAgent, runAgent, scriptedModel, type Agent } from './support/agent-loop.ts'
import { ofType, recordEvents } from './support/events.ts'
import { collect, watchCollection } from './support/gc.ts'
import { oneCallPerStep, remindersIn, runScenario, textOf, times, tools } from './support/scenario.ts'
import { detailed, GENTLE } from './support/texts.ts'
import { GREP, GREP_ARGS, resultNumber, finishingInReverse } from './support/chain-loop.ts'

describe('chains through an agent loop', () => {
  it('counts parallel calls of one step in the order they were issued, whatever order they finish in', async () => {
    const tool = finishingInReverse([3, 2])
    const downstream = finishingInReverse([3, 3])
    const step = [
      { name: 'read_file', arguments: { path: 'a' } },
      { name: 'read_file', arguments: { path: 'a' } },
      { name: 'read_file', arguments: { path: 'a' } },
    ]
    const mixed = [
      { name: 'grep', arguments: GREP },
      { name: 'read_file', arguments: { path: 'a' } },
      { name: 'read_file', arguments: { path: 'a' } },
    ]
    const guard = createRepeatToolGuard()
    const events = recordEvents(guard)
    const agent = createAgent('main')
    await runAgent({
      guard,
      agent,
      model: scriptedModel([{ calls: step }, { calls: mixed }, { text: 'Done.' }]),
      prompt: 'Read a.',
      tools: {
        ...tools,
        read_file: async ({ path }: { path: string }) => {
          await tool.gate()
          return `contents of ${path}`
        },
      },
      // Another plugin after the guard, slower for the earlier calls.
      downstream: async () => {
        await downstream.gate()
        return { kind: 'continue' }
      },
    })
    expect(ofType(events, 'call').map(({ seq, tool, count }) => [seq, tool, count])).toEqual([
      [1, 'read_file', 1],
      [2, 'read_file', 2],
      [3, 'read_file', 3],
      [4, 'grep', 1],
      [5, 'read_file', 1],
      [6, 'read_file', 2],
    ])
    expect(tool.finished).toEqual([2, 1, 0, 1, 0])
    expect(downstream.finished).toEqual([2, 1, 0, 2, 1, 0])
    const roles = agent.history.slice(1, 6).map((m) => (m.role === 'user' ? 'reminder' : m.role))
    expect(roles).toEqual(['assistant', 'tool', 'tool', 'tool', 'reminder'])
    expect(remindersIn(agent.history).map(({ reminder }) => reminder.source.summary)).toEqual(['read_file × 3'])
  })

  it('counts a denied call that the model keeps retrying', async () => {
    const script = oneCallPerStep(times(5, ['delete_file', { path: '/' }]))
    const ran: string[] = []
    const { agent, events } = await runScenario(script, undefined, {
      permit: (name) => name !== 'delete_file',
      tools: { ...tools, delete_file: ({ path }: { path: string }) => (ran.push(path), 'deleted') },
    })
    expect(ran).toEqual([])
    expect(remindersIn(agent.history).map(({ reminder }) => textOf(reminder))).toEqual([GENTLE, detailed('delete_file', 5, '{"path":"/"}')])
    expect(ofType(events, 'call').map(({ denied, isError, count }) => [denied, isError, count])).toEqual([1, 2, 3, 4, 5].map((count) => [true, true, count]))
  })

  it('gives a subagent its own chain, also while parent and subagent interleave', async () => {
    const guard = createRepeatToolGuard()
    const events = recordEvents(guard)
    const parent = createAgent('main')
    const child = createAgent('explorer', parent)
    const run = (agent: Agent) => runAgent({ guard, agent, tools, prompt: 'Look for TODOs.', model: scriptedModel(oneCallPerStep(times(3, ['grep', GREP]))) })
    await Promise.all([run(parent), run(child)])
    // Both loops await every step, so their calls alternate: one shared chain would reach 6.
    const calls = ofType(events, 'call').map(({ agentId, count }) => [agentId, count])
    expect(calls).toEqual([
      [1, 1],
      [2, 1],
      [1, 2],
      [2, 2],
      [1, 3],
      [2, 3],
    ])
    for (const agent of [parent, child]) expect(remindersIn(agent.history).map(({ reminder }) => textOf(reminder))).toEqual([GENTLE])
    expect(guard.snapshot()).toEqual([
      { id: 1, label: 'main', tool: 'grep', canonicalArguments: GREP_ARGS, count: 3, nextThreshold: 5 },
      { id: 2, label: 'explorer', parentId: 1, tool: 'grep', canonicalArguments: GREP_ARGS, count: 3, nextThreshold: 5 },
    ])
  })

  it('runs a subagent spawned by a tool call on its own chain', async () => {
    const guard = createRepeatToolGuard({ exclude: ['task'] })
    const parent = createAgent('main')
    let child: Agent | undefined
    const task = async (_args: { prompt: string }, { agent }: { agent: Agent }) => {
      child = createAgent('explorer', agent)
      const model = scriptedModel(oneCallPerStep(times(3, ['grep', GREP]), 'Found one TODO.'))
      return runAgent({ guard, agent: child, model, tools, prompt: 'Find TODOs.' })
    }
    const script = oneCallPerStep([
      ['grep', GREP],
      ['task', { prompt: 'Find TODOs.' }],
      ['grep', GREP],
      ['grep', GREP],
    ])
    await runAgent({ guard, agent: parent, tools: { ...tools, task }, prompt: 'Fix the TODOs.', model: scriptedModel(script) })
    expect(remindersIn(child!.history).map(({ after }) => resultNumber(child!.history, after))).toEqual([3])
    expect(remindersIn(parent.history).map(({ after }) => resultNumber(parent.history, after))).toEqual([4])
  })

  it('starts a new agent on a fresh chain after the old one was dropped', async () => {
    const guard = createRepeatToolGuard()
    const events = recordEvents(guard)
    let collected = () => false
    await (async () => {
      const old = createAgent('main')
      collected = watchCollection(old)
      await runAgent({ guard, agent: old, tools, prompt: 'Go.', model: scriptedModel(oneCallPerStep(times(2, ['grep', GREP]))) })
      expect(guard.snapshot()).toMatchObject([{ id: 1, label: 'main', count: 2 }])
    })()
    await collect(collected)
    expect(guard.snapshot()).toEqual([])
    const next = createAgent('main')
    await runAgent({ guard, agent: next, tools, prompt: 'Go.', model: scriptedModel(oneCallPerStep(times(2, ['grep', GREP]))) })
    expect(remindersIn(next.history)).toEqual([])
    expect(guard.snapshot()).toEqual([{ id: 2, label: 'main', tool: 'grep', canonicalArguments: GREP_ARGS, count: 2, nextThreshold: 3 }])
    expect(ofType(events, 'agent-seen').map((e) => e.agent)).toEqual([
      { id: 1, label: 'main' },
      { id: 2, label: 'main' },
    ])
  })

  it('starts over on a user prompt, and not on its own reminders', async () => {
    const guard = createRepeatToolGuard()
    const events = recordEvents(guard)
    const agent = createAgent('main')
    const go = (n: number) => runAgent({ guard, agent, tools, prompt: 'Again.', model: scriptedModel(oneCallPerStep(times(n, ['grep', GREP]))) })
    await go(4)
    await go(2)
    expect(remindersIn(agent.history).map(({ after }) => resultNumber(agent.history, after))).toEqual([3])
    expect(ofType(events, 'call').map((e) => e.count)).toEqual([1, 2, 3, 4, 1, 2])
    expect(ofType(events, 'chain-reset')).toMatchObject([{ reason: 'prompt', previousCount: 4, agentId: 1 }])
  })

  it('ignores calls without an agent: no reminder, no state, no event', async () => {
    const guard = createRepeatToolGuard({ thresholds: [2] })
    const events = recordEvents(guard)
    for (const agent of [undefined, null]) {
      for (let i = 0; i < 3; i++) {
        expect(guard.observe({ agent, name: 'grep', arguments: GREP })).toBeUndefined()
        await expect(guard.postExecute({ name: 'grep', arguments: GREP }, undefined, () => ({ kind: 'continue', x: i }))).resolves.toEqual({ kind: 'continue', x: i })
      }
    }
    expect(events).toEqual([])
    expect(guard.snapshot()).toEqual([])
  })
})
