import { describe, expect, it, vi } from 'vitest'
import { createRepeatToolGuard, type PostToolDecision, type ToolExecution } from '../../../engine/index.ts'
import { ofType, recordEvents } from './support/events.ts'
import { oneCallPerStep, remindersIn, runScenario, textOf, times } from './support/scenario.ts'
import { GENTLE } from './support/texts.ts'

const other = { role: 'user', content: [{ type: 'text', text: 'lint: 2 warnings' }], source: { kind: 'plugin', plugin: 'lint' } }

/** A guard whose next observed call for `agent` reaches the first threshold (2). */
function primed() {
  const guard = createRepeatToolGuard({ thresholds: [2, 3] })
  const agent = { name: 'main' }
  const exec: ToolExecution = { agent, name: 'grep', arguments: { q: 'x' } }
  guard.observe(exec)
  return { guard, agent, exec, events: recordEvents(guard) }
}

describe('the post-execute waterfall', () => {
  it('always asks the next plugin, exactly once, reminder or not', async () => {
    const downstream = vi.fn((): PostToolDecision => ({ kind: 'continue' }))
    const { agent } = await runScenario(oneCallPerStep([...times(3, ['grep', { q: 'x' }] as const), ['todo_write', []], ['grep', { q: 'y' }]]), { exclude: ['todo_write'] }, { downstream })
    expect(downstream).toHaveBeenCalledTimes(5)
    expect(remindersIn(agent.history).map(({ reminder }) => textOf(reminder))).toEqual([GENTLE])
  })

  it('puts the reminder first and keeps every downstream entry and field', async () => {
    const { guard, exec } = primed()
    const downstream = { kind: 'continue', additionalContexts: [other], traceId: 'abc', nested: { keep: true } } as const
    const decision = await guard.postExecute(exec, { isError: false }, () => downstream)
    expect(decision).toEqual({ ...downstream, additionalContexts: [expect.objectContaining({ role: 'user', source: expect.objectContaining({ summary: 'grep × 2' }) }), other] })
    expect(decision.additionalContexts![1]).toBe(other)
    expect(decision.nested).toBe(downstream.nested)
    // The downstream decision itself is left as it was.
    expect(downstream.additionalContexts).toEqual([other])
  })

  it('keeps a block, and still reminds', async () => {
    const { guard, exec } = primed()
    const decision = await guard.postExecute(exec, {}, async () => ({ kind: 'block', feedback: 'Not allowed here.', additionalContexts: [other] }))
    expect(decision.kind).toBe('block')
    expect(decision).toMatchObject({ feedback: 'Not allowed here.', additionalContexts: [{ content: [{ text: GENTLE }] }, other] })
  })

  it('continues by default, with a fresh decision each time', async () => {
    const { guard, exec } = primed()
    const first = await guard.postExecute(exec)
    expect(first).toMatchObject({ kind: 'continue', additionalContexts: [{ content: [{ text: GENTLE }] }] })
    const plain = createRepeatToolGuard()
    const a = await plain.postExecute({ agent: {}, name: 'grep' })
    const b = await plain.postExecute({ agent: {}, name: 'grep' })
    expect(a).toEqual({ kind: 'continue' })
    expect(a).not.toBe(b)
    // The caller may add to what it got back.
    ;(a as { additionalContexts?: unknown[] }).additionalContexts = []
  })

  it('returns the downstream decision untouched when no reminder fires', async () => {
    const guard = createRepeatToolGuard()
    const downstream: PostToolDecision = { kind: 'continue', additionalContexts: [other] }
    expect(await guard.postExecute({ agent: {}, name: 'grep' }, undefined, () => downstream)).toBe(downstream)
  })

  it('lets a downstream failure through, with the chain already advanced', async () => {
    const { guard, exec } = primed()
    await expect(
      guard.postExecute(exec, {}, () => {
        throw new Error('downstream broke')
      }),
    ).rejects.toThrow('downstream broke')
    expect(guard.snapshot()).toMatchObject([{ count: 2 }])
  })

  it('reports, and steps aside, when the downstream decision cannot take the reminder', async () => {
    for (const decision of [undefined, 'continue', { kind: 'continue', additionalContexts: 'lint' }, { kind: 'continue', additionalContexts: { 0: other } }]) {
      const { guard, exec, events } = primed()
      const result = await guard.postExecute(exec, {}, () => decision as unknown as PostToolDecision)
      expect(result).toBe(decision)
      expect(ofType(events, 'fault')).toHaveLength(1)
      expect(ofType(events, 'fault')[0]!.message).toMatch(/^postExecute: the reminder was not added: /)
    }
    const { guard, exec, events } = primed()
    const hostile = {
      kind: 'continue',
      get additionalContexts(): never {
        throw new Error('trap')
      },
    } as unknown as PostToolDecision
    expect(await guard.postExecute(exec, {}, () => hostile)).toBe(hostile)
    expect(ofType(events, 'fault').map((e) => e.message)).toEqual(['postExecute: the reminder was not added: trap'])
  })
})

describe('a guard fault', () => {
  it('never fails the caller: the downstream decision goes through and the chain stays sound', async () => {
    const { guard, agent, events } = primed()
    const hostileArguments = {
      agent,
      name: 'grep',
      get arguments(): never {
        throw new Error('arguments getter')
      },
    }
    const hostileResult = {
      get denied(): never {
        throw new Error('denied getter')
      },
    }
    const downstream: PostToolDecision = { kind: 'continue', additionalContexts: [other] }
    expect(await guard.postExecute(hostileArguments, {}, () => downstream)).toBe(downstream)
    expect(await guard.postExecute({ agent, name: 'grep', arguments: { q: 'x' } }, hostileResult, () => downstream)).toBe(downstream)
    expect(ofType(events, 'fault').map((e) => e.message)).toEqual(['postExecute: arguments getter', 'postExecute: denied getter'])
    // Neither fault moved the chain: the next identical call is the second.
    expect(guard.snapshot()).toMatchObject([{ count: 1 }])
    expect((await guard.postExecute({ agent, name: 'grep', arguments: { q: 'x' } })).additionalContexts).toHaveLength(1)
  })

  it('is reported to nobody when nobody listens, and still does not fail the caller', async () => {
    const guard = createRepeatToolGuard()
    const exec = {
      agent: {},
      name: 'grep',
      get arguments(): never {
        throw new Error('x')
      },
    }
    await expect(guard.postExecute(exec)).resolves.toEqual({ kind: 'continue' })
  })
})

describe('misuse', () => {
  const cases: [string, ToolExecution, unknown, RegExp][] = [
    ['no execution', null as never, undefined, /expected a tool execution \{ agent, name, arguments \}, got null/],
    ['a string execution', 'grep' as never, undefined, /got string/],
    ['no name', { agent: {} } as never, undefined, /needs a non-empty string name, got undefined/],
    ['an empty name', { agent: {}, name: '' }, undefined, /needs a non-empty string name, got an empty string/],
    ['a numeric name', { agent: {}, name: 7 as never }, undefined, /non-empty string name, got number/],
    ['an agent id instead of the agent', { agent: 'agent-1' as never, name: 'grep' }, undefined, /agent must be the live agent object, got string/],
    ['a string result', { agent: {}, name: 'grep' }, 'ok', /the tool result must be an object, got string/],
  ]

  it.each(cases)('throws a TypeError for %s, from observe and from postExecute', async (_, exec, result, message) => {
    const guard = createRepeatToolGuard()
    const events = recordEvents(guard)
    expect(() => guard.observe(exec, result as never)).toThrow(TypeError)
    expect(() => guard.observe(exec, result as never)).toThrow(message)
    await expect(guard.postExecute(exec, result as never)).rejects.toThrow(TypeError)
    await expect(guard.postExecute(exec, result as never)).rejects.toThrow(/^repeat-tool-guard: /)
    expect(events).toEqual([])
  })

  it('throws a TypeError for a next that is not a function, before touching the chain', async () => {
    const guard = createRepeatToolGuard()
    await expect(guard.postExecute({ agent: {}, name: 'grep' }, {}, { kind: 'continue' } as never)).rejects.toThrow('repeat-tool-guard: next must be a function returning a decision, got object')
    expect(guard.snapshot()).toEqual([])
  })

  it('throws a TypeError for promptSubmit without an agent object', () => {
    const guard = createRepeatToolGuard()
    for (const agent of [undefined, null, 'main', 1]) expect(() => guard.promptSubmit(agent as never)).toThrow(/^repeat-tool-guard: promptSubmit\(agent\) expects the agent object/)
    expect(() => guard.promptSubmit({})).not.toThrow()
  })

  it('accepts a function as an agent, and results given as null', () => {
    const guard = createRepeatToolGuard({ thresholds: [2] })
    const agent = () => undefined
    guard.observe({ agent, name: 'grep', arguments: 1 }, null as never)
    expect(guard.observe({ agent, name: 'grep', arguments: 1 }, null as never)).toBeDefined()
  })
})
