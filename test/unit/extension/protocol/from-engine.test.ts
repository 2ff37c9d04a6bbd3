import { describe, expect, it } from 'vitest'
import { createRepeatToolGuard, RECOMMENDED_CONFIG, type AgentSnapshot, type GuardEvent } from '../../../../engine/index.ts'
import { LIMITS, type PanelEvent } from '../../../../extension/src/protocol/events.ts'
import { fromEngineEvent, snapshotEvent } from '../../../../extension/src/protocol/from-engine.ts'
import { approxSize } from '../../../../extension/src/protocol/size.ts'
import { checkPanelEvent } from '../../../../extension/src/protocol/validate.ts'

function record(run: (guard: ReturnType<typeof createRepeatToolGuard>) => void): { engine: GuardEvent[]; panelEvents: PanelEvent[] } {
  const guard = createRepeatToolGuard(RECOMMENDED_CONFIG)
  const engine: GuardEvent[] = []
  guard.subscribe((e) => void engine.push(e))
  run(guard)
  return { engine, panelEvents: engine.map(fromEngineEvent) }
}

describe('fromEngineEvent', () => {
  it('maps a session of a parent and a subagent to valid panel events', () => {
    const parent = { name: 'planner' }
    const child = { name: 'worker', parent }
    const { engine, panelEvents } = record((guard) => {
      guard.observe({ agent: parent, name: 'plan', arguments: {} })
      for (let i = 0; i < 3; i++) guard.observe({ agent: child, name: 'grep', arguments: { q: 'x' } }, { denied: i === 1 })
      guard.observe({ agent: child, name: 'todo_write', arguments: ['a'] })
      guard.observe({ agent: child, name: 'read', arguments: 'not json' }, { isError: true })
      guard.promptSubmit(child)
      guard.configure({ thresholds: [2, 4] })
    })
    for (const event of panelEvents) expect(checkPanelEvent(event)).toMatchObject({ ok: true })
    expect(panelEvents.map((e) => e.type)).toEqual(engine.map((e) => ({ 'agent-seen': 'agent', 'chain-reset': 'reset' })[e.type as string] ?? e.type))

    const agents = panelEvents.flatMap((e) => (e.type === 'agent' ? [e.agent] : []))
    expect(agents).toEqual([
      { id: 'hook:1', kind: 'hook', label: 'planner' },
      { id: 'hook:2', kind: 'hook', label: 'worker', parentId: 'hook:1' },
    ])
    const calls = panelEvents.flatMap((e) => (e.type === 'call' ? [[e.agentId, e.tool, e.args, e.count, e.tracked, e.denied, e.isError]] : []))
    expect(calls).toEqual([
      ['hook:1', 'plan', '{}', 1, true, false, false],
      ['hook:2', 'grep', '{"q":"x"}', 1, true, false, false],
      ['hook:2', 'grep', '{"q":"x"}', 2, true, true, false],
      ['hook:2', 'grep', '{"q":"x"}', 3, true, false, false],
      ['hook:2', 'todo_write', '["a"]', 3, false, false, false],
      ['hook:2', 'read', 'not json', 1, true, false, true],
    ])
    const reminder = panelEvents.find((e) => e.type === 'reminder')
    const engineReminder = engine.find((e) => e.type === 'reminder')
    expect(reminder).toEqual({
      type: 'reminder',
      at: engineReminder!.at,
      agentId: 'hook:2',
      seq: 3,
      tool: 'grep',
      count: 3,
      level: 'gentle',
      text: engineReminder!.type === 'reminder' ? engineReminder!.message.content[0].text : '',
    })
    expect(panelEvents.filter((e) => e.type === 'reset').map((e) => e.type === 'reset' && e.reason)).toEqual(['different-call', 'prompt'])
    expect(panelEvents.at(-1)).toMatchObject({ type: 'config', config: { thresholds: [2, 4] } })
  })

  it('cuts long arguments, tool names and labels to the protocol caps, keeping the true length', () => {
    const big = { blob: 'é'.repeat(LIMITS.args * 2) }
    const { panelEvents } = record((guard) => guard.observe({ agent: { name: 'n'.repeat(500) }, name: 't'.repeat(1_000), arguments: big }))
    const call = panelEvents.find((e) => e.type === 'call')
    expect(call).toMatchObject({ argsLength: JSON.stringify(big).length })
    if (call?.type !== 'call') throw new Error('no call')
    expect(call.args).toHaveLength(LIMITS.args)
    expect(call.tool).toHaveLength(LIMITS.toolName)
    for (const event of panelEvents) expect(checkPanelEvent(event)).toMatchObject({ ok: true })
  })

  it('cuts a reminder longer than the text cap, keeping its true length; a whole one carries none', () => {
    const guard = createRepeatToolGuard({ ...RECOMMENDED_CONFIG, argumentsPreviewChars: LIMITS.text * 2 })
    const reminders: GuardEvent[] = []
    guard.subscribe((e) => void (e.type === 'reminder' && reminders.push(e)))
    const agent = { name: 'a' }
    const huge = { blob: 'x'.repeat(LIMITS.text) }
    for (let i = 0; i < 5; i++) guard.observe({ agent, name: 'write', arguments: huge })
    const [gentle, detailed] = reminders.map(fromEngineEvent)
    const full = reminders[1]!.type === 'reminder' ? reminders[1]!.message.content[0].text : ''
    expect(full.length).toBeGreaterThan(LIMITS.text)
    expect(detailed).toMatchObject({ level: 'detailed', text: full.slice(0, LIMITS.text), textLength: full.length })
    expect(checkPanelEvent(detailed)).toMatchObject({ ok: true })
    expect(gentle).toMatchObject({ level: 'gentle' })
    expect(gentle).not.toHaveProperty('textLength')
  })

  it('never cuts a reminder between the halves of a surrogate pair', () => {
    const fault = fromEngineEvent({ type: 'fault', at: 1, message: `${'a'.repeat(LIMITS.text - 1)}😀 tail` })
    expect(fault.type === 'fault' && fault.message).toBe('a'.repeat(LIMITS.text - 1))
  })
})

describe('fromEngineEvent with detectors on', () => {
  it('keeps the detector, the cycle level, the result-changed reason and the blocked call', () => {
    const guard = createRepeatToolGuard({ cycles: { maxPeriod: 2, repeats: 2 }, resultAware: true, stopAfter: 2 })
    const engine: GuardEvent[] = []
    guard.subscribe((e) => void engine.push(e))
    const agent = { name: 'main' }
    for (const name of ['grep', 'read', 'grep', 'read']) guard.observe({ agent, name, arguments: {} })
    guard.observe({ agent, name: 'read', arguments: {} }, { content: 'changed' })
    guard.observe({ agent, name: 'read', arguments: {} }, { content: 'changed' })
    guard.preExecute({ agent, name: 'read', arguments: {} })
    const panelEvents = engine.map(fromEngineEvent)
    for (const event of panelEvents) expect(checkPanelEvent(event)).toMatchObject({ ok: true })
    expect(panelEvents.find((e) => e.type === 'reminder')).toMatchObject({ level: 'cycle', detector: 'cycle', count: 2, tool: 'read' })
    expect(panelEvents.filter((e) => e.type === 'reset').map((e) => e.type === 'reset' && e.reason)).toContain('result-changed')
    expect(panelEvents.at(-1)).toEqual({
      type: 'blocked',
      at: engine.at(-1)!.at,
      agentId: 'hook:1',
      tool: 'read',
      count: 2,
      feedback: 'Blocked by repeat-tool-guard: read was already called 2 times in a row with identical arguments (stopAfter: 2). Choose a different action.',
      // The run's cost in time (docs/detectors.md, "Waste"), as the engine gave it.
      wasteMs: (engine.at(-1) as { wasteMs: number }).wasteMs,
    })
  })

  it('cuts the tool name and the feedback of a blocked call to the protocol caps', () => {
    const tool = 't'.repeat(LIMITS.text)
    const blocked = fromEngineEvent({ type: 'blocked', at: 1, agentId: 1, tool, count: 2, feedback: `Blocked by repeat-tool-guard: ${tool}` })
    expect(blocked).toMatchObject({ tool: 't'.repeat(LIMITS.toolName), feedback: `Blocked by repeat-tool-guard: ${tool}`.slice(0, LIMITS.text) })
    expect(checkPanelEvent(blocked)).toMatchObject({ ok: true })
  })
})

describe('snapshotEvent', () => {
  const agent = (id: number, args = '{}'): AgentSnapshot => ({ id, label: `agent ${id}`, tool: 'grep', canonicalArguments: args, count: 2, nextThreshold: 3 })

  it('maps the engine snapshot to agent states', () => {
    const event = snapshotEvent([agent(1), { id: 2, label: 'child', parentId: 1, count: 0, nextThreshold: 3 }], RECOMMENDED_CONFIG, 5)
    expect(event).toEqual({
      type: 'snapshot',
      at: 5,
      config: RECOMMENDED_CONFIG,
      agents: [
        { id: 'hook:1', kind: 'hook', label: 'agent 1', tool: 'grep', args: '{}', count: 2, nextThreshold: 3 },
        { id: 'hook:2', kind: 'hook', label: 'child', parentId: 'hook:1', count: 0, nextThreshold: 3 },
      ],
    })
    expect(checkPanelEvent(event)).toMatchObject({ ok: true })
  })

  it('stays within one batch however many agents are alive', () => {
    const agents = Array.from({ length: 5_000 }, (_, i) => agent(i + 1, 'x'.repeat(LIMITS.args * 2)))
    const event = snapshotEvent(agents, RECOMMENDED_CONFIG, 1)
    expect(approxSize(event)).toBeLessThan(LIMITS.batchBytes)
    expect(checkPanelEvent(event)).toMatchObject({ ok: true })
    if (event.type !== 'snapshot') throw new Error('not a snapshot')
    expect(event.agents[0]!.args).toHaveLength(LIMITS.args)
    expect(event.agents.at(-1)!.args).toBeUndefined()
    expect(event.agents.length).toBeGreaterThan(1_000)
  })
})
