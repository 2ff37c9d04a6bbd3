import { describe, expect, it } from 'vitest'
import { createRepeatToolGuard, type GuardEvent } from '../../../engine/index.ts'
import { createAgent, runAgent, scriptedModel } from './support/agent-loop.ts'
import { recordEvents } from './support/events.ts'
import { collectNow } from './support/gc.ts'
import { oneCallPerStep, tools } from './support/scenario.ts'
import { GENTLE } from './support/texts.ts'

/** Events without their timestamps, which a test cannot predict. */
const untimed = (events: readonly GuardEvent[]) => events.map(({ at: _, ...rest }) => rest)

describe('subscribe', () => {
  it('reports every kind of event an agent loop causes, in order', async () => {
    const guard = createRepeatToolGuard({ thresholds: [2, 3], exclude: ['todo_write'] })
    const events = recordEvents(guard)
    const before = Date.now()
    const parent = createAgent('main')
    const child = createAgent('explorer', parent)
    const script = oneCallPerStep([
      ['grep', { q: 'x' }],
      ['todo_write', ['a']],
      ['grep', { q: 'x' }],
      ['read_file', { path: 'a' }],
    ])
    await runAgent({ guard, agent: child, model: scriptedModel(script), tools, prompt: 'Go.', permit: (name) => name !== 'read_file' })
    guard.promptSubmit(child)
    guard.configure({ argumentsPreviewChars: 10 })
    await guard.postExecute({
      agent: child,
      name: 'grep',
      get arguments(): never {
        throw new Error('broken getter')
      },
    })
    const call = { tracked: true, denied: false, isError: false, agentId: 2 }
    expect(untimed(events)).toEqual([
      { type: 'agent-seen', agent: { id: 1, label: 'main' } },
      { type: 'agent-seen', agent: { id: 2, label: 'explorer', parentId: 1 } },
      { type: 'call', ...call, seq: 1, tool: 'grep', canonicalArguments: '{"q":"x"}', count: 1, nextThreshold: 2 },
      { type: 'call', ...call, seq: 2, tool: 'todo_write', canonicalArguments: '["a"]', tracked: false, count: 1, nextThreshold: 2 },
      { type: 'call', ...call, seq: 3, tool: 'grep', canonicalArguments: '{"q":"x"}', count: 2, nextThreshold: 3 },
      {
        type: 'reminder',
        agentId: 2,
        seq: 3,
        tool: 'grep',
        count: 2,
        level: 'gentle',
        message: { role: 'user', content: [{ type: 'text', text: GENTLE }], source: { kind: 'plugin', plugin: 'repeat-tool-guard', form: 'notice', summary: 'grep × 2' } },
      },
      { type: 'chain-reset', agentId: 2, reason: 'different-call', previousCount: 2 },
      { type: 'call', ...call, seq: 4, tool: 'read_file', canonicalArguments: '{"path":"a"}', denied: true, isError: true, count: 1, nextThreshold: 2 },
      { type: 'chain-reset', agentId: 2, reason: 'prompt', previousCount: 1 },
      { type: 'config', config: { thresholds: [2, 3], include: [], exclude: ['todo_write'], argumentsPreviewChars: 10 } },
      { type: 'fault', message: 'postExecute: broken getter' },
    ])
    for (const event of events) {
      expect(event.at).toBeGreaterThanOrEqual(before)
      expect(event.at).toBeLessThanOrEqual(Date.now())
      expect(Object.isFrozen(event)).toBe(true)
    }
  })

  it('stops reporting after unsubscribe, and rejects a listener that is not a function', () => {
    const guard = createRepeatToolGuard()
    const events: GuardEvent[] = []
    const unsubscribe = guard.subscribe((event) => events.push(event))
    guard.observe({ agent: {}, name: 'grep' })
    expect(events.map((e) => e.type)).toEqual(['agent-seen', 'call'])
    unsubscribe()
    unsubscribe()
    guard.observe({ agent: {}, name: 'grep' })
    expect(events).toHaveLength(2)
    expect(() => guard.subscribe('listener' as never)).toThrow('repeat-tool-guard: subscribe(listener) expects a function, got string')
  })

  it('isolates a listener that throws or mutates: the call, the reminder and other listeners are untouched', () => {
    const guard = createRepeatToolGuard({ thresholds: [2] })
    const seen: string[] = []
    guard.subscribe(() => {
      throw new Error('listener bug')
    })
    guard.subscribe((event) => {
      if (event.type === 'call') (event as { count: number }).count = 99
      if (event.type === 'reminder') (event.message.content[0] as { text: string }).text = 'hijacked'
    })
    guard.subscribe((event) => seen.push(event.type === 'call' ? `call ${event.count}` : event.type))
    const agent = {}
    guard.observe({ agent, name: 'grep', arguments: 1 })
    const reminder = guard.observe({ agent, name: 'grep', arguments: 1 })
    expect(reminder?.content[0].text).toBe(GENTLE)
    expect(seen).toEqual(['agent-seen', 'call 1', 'call 2', 'reminder'])
  })

  it('hands an event only to the listeners subscribed before it was emitted', () => {
    const guard = createRepeatToolGuard()
    const late: string[] = []
    guard.subscribe((event) => {
      if (event.type === 'agent-seen') guard.subscribe((e) => late.push(e.type))
    })
    guard.observe({ agent: {}, name: 'grep' })
    expect(late).toEqual(['call'])
  })
})

describe('snapshot', () => {
  it('lists every live agent, oldest first, with its chain and next threshold', () => {
    const guard = createRepeatToolGuard({ thresholds: [2, 3], exclude: ['todo_write'] })
    const idle = { name: 'idle' }
    const busy = { name: 'busy' }
    guard.observe({ agent: idle, name: 'todo_write', arguments: [] })
    for (let i = 0; i < 4; i++) guard.observe({ agent: busy, name: 'grep', arguments: { q: 'x' } })
    expect(guard.snapshot()).toEqual([
      { id: 1, label: 'idle', count: 0, nextThreshold: 2 },
      { id: 2, label: 'busy', tool: 'grep', canonicalArguments: '{"q":"x"}', count: 4, nextThreshold: null },
    ])
    guard.promptSubmit(busy)
    expect(guard.snapshot()[1]).toEqual({ id: 2, label: 'busy', count: 0, nextThreshold: 2 })
  })

  it('labels an agent by its name, else its id, else by number', () => {
    const guard = createRepeatToolGuard()
    const agents = [
      { name: 'planner', id: 'p-1' },
      { name: '', id: 'p-2' },
      { id: 42 },
      { id: Number.NaN, name: 7 },
      { name: { first: 'x' } },
      {
        get name(): never {
          throw new Error('hostile')
        },
      },
      { name: `${'a'.repeat(199)}😀tail` },
    ]
    for (const agent of agents) guard.observe({ agent, name: 'grep' })
    expect(guard.snapshot().map((a) => a.label)).toEqual(['planner', 'p-2', '42', '7', 'agent 5', 'agent 6', 'a'.repeat(199)])
  })

  it('gives a subagent its parent, known or first seen through the child', () => {
    const guard = createRepeatToolGuard()
    const root = { name: 'root' }
    const middle = { name: 'middle', parent: root }
    const leaf = { name: 'leaf', parent: middle }
    guard.observe({ agent: leaf, name: 'grep' })
    expect(guard.snapshot().map(({ id, label, parentId }) => [id, label, parentId])).toEqual([
      [1, 'root', undefined],
      [2, 'middle', 1],
      [3, 'leaf', 2],
    ])
    const sibling = { name: 'sibling', parent: middle }
    guard.observe({ agent: sibling, name: 'grep' })
    expect(guard.snapshot()[3]).toMatchObject({ id: 4, label: 'sibling', parentId: 2 })
  })

  it('never loops on parent links a page gets wrong', () => {
    const guard = createRepeatToolGuard()
    const self: Record<string, unknown> = { name: 'self' }
    self.parent = self
    const a: Record<string, unknown> = { name: 'a' }
    const b: Record<string, unknown> = { name: 'b', parent: a }
    a.parent = b
    const hostile = {
      name: 'hostile',
      get parent(): never {
        throw new Error('no')
      },
    }
    const notAgent = { name: 'odd', parent: 'root' }
    for (const agent of [self, a, hostile, notAgent]) guard.observe({ agent, name: 'grep' })
    expect(guard.snapshot().map(({ id, label, parentId }) => [id, label, parentId])).toEqual([
      [1, 'self', undefined],
      [2, 'b', undefined],
      [3, 'a', 2],
      [4, 'hostile', undefined],
      [5, 'odd', undefined],
    ])
    // A parent chain longer than any real one is cut, not followed to its end.
    let deep: Record<string, unknown> = { name: 'agent 0' }
    for (let i = 1; i <= 1000; i++) deep = { name: `agent ${i}`, parent: deep }
    const deepGuard = createRepeatToolGuard()
    deepGuard.observe({ agent: deep, name: 'grep' })
    const chain = deepGuard.snapshot()
    expect(chain).toHaveLength(33)
    expect(chain[0]).toEqual({ id: 1, label: 'agent 968', count: 0, nextThreshold: 3 })
    expect(chain.at(-1)).toMatchObject({ label: 'agent 1000', parentId: 32 })
  })

  it('drops an agent that was collected, even before its finalisation ran', async () => {
    const guard = createRepeatToolGuard()
    const kept = { name: 'kept' }
    guard.observe({ agent: kept, name: 'grep' })
    ;(() => guard.observe({ agent: { name: 'dropped' }, name: 'grep' }))()
    await collectNow()
    expect(guard.snapshot().map((a) => a.label)).toEqual(['kept'])
  })
})
