// The wire agents: one per conversation, told apart and remembered across requests.
import { describe, expect, test } from 'vitest'
import { createWireGuard } from '../../../engine/wire/index.ts'
import { anthropicBody, openaiChatBody, repeat, requests, type Body, type Script } from '../../fixtures/wire/conversations.ts'
import { occurrences } from '../../fixtures/wire/placements.ts'
import { GENTLE } from '../../fixtures/wire/reminders.ts'
import { READ, LOOP, drive, eventsOf, ofType } from './support/wire-guard-drive.ts'

describe('agents', () => {
  test('a subagent is its own conversation with its own chain', () => {
    const parent: Script = { system: 'You are the lead agent.', turns: [{ prompt: 'plan' }, ...repeat(READ, 3)] }
    const child: Script = { system: 'You are a search subagent.', turns: [{ prompt: 'find x' }, ...repeat({ name: 'grep', args: { q: 'x' } }, 3)] }
    const guard = createWireGuard()
    const p = requests(parent, anthropicBody)
    const c = requests(child, anthropicBody)
    const results = drive(guard, [p[1]!, c[1]!, p[2]!, c[2]!, p[3]!, c[3]!])
    const events = eventsOf(results)
    expect(ofType(events, 'agent').map((e) => [e.agentId, e.label])).toEqual([
      [1, 'You are the lead agent.'],
      [2, 'You are a search subagent.'],
    ])
    expect(ofType(events, 'reminder').map((e) => [e.agentId, e.tool])).toEqual([
      [1, 'read_file'],
      [2, 'grep'],
    ])
    expect(ofType(events, 'call').map((e) => [e.agentId, e.seq, e.count])).toEqual([
      [1, 1, 1],
      [2, 1, 1],
      [1, 2, 2],
      [2, 2, 2],
      [1, 3, 3],
      [2, 3, 3],
    ])
  })

  test("labels come from the system prompt's first words, else the first prompt, else the format", () => {
    const label = (script: Script, build = openaiChatBody) => ofType(eventsOf(drive(createWireGuard(), requests(script, build))), 'agent')[0]!.label
    expect(label({ system: 'You are a meticulous senior engineer who reviews every pull request twice', turns: [{ prompt: 'go' }, { calls: [READ] }] })).toBe(
      'You are a meticulous senior engineer who reviews…',
    )
    expect(label({ turns: [{ prompt: 'summarise   the\nrepo' }, { calls: [READ] }] })).toBe('summarise the repo')
    expect(label({ turns: [{ calls: [READ] }] })).toBe('OpenAI Chat Completions agent')
    expect(label({ system: 'x'.repeat(100), turns: [{ calls: [READ] }] })).toBe(`${'x'.repeat(60)}…`)
  })

  test('a forked history (an edited prompt, a regenerated answer) rebuilds the chain where the two agree', () => {
    const guard = createWireGuard()
    const first = requests({ turns: [{ prompt: 'go' }, ...repeat(READ, 3)] }, openaiChatBody)
    drive(guard, first)
    // The same conversation, but the answer after the first step was regenerated with new calls.
    const branch = openaiChatBody({ turns: [{ prompt: 'go' }, ...repeat(READ, 3)] })
    const messages = branch.messages as { tool_calls?: { id: string }[]; tool_call_id?: string }[]
    messages.slice(3).forEach((m) => {
      m.tool_calls?.forEach((call) => (call.id = `${call.id}b`))
      if (m.tool_call_id) m.tool_call_id = `${m.tool_call_id}b`
    })
    const [result] = drive(guard, [branch])
    const events = result!.inspection!.events
    // Steps 2 and 3 are new: counted again from step 1's count, numbered after what was reported.
    expect(ofType(events, 'call').map((e) => [e.seq, e.count])).toEqual([
      [4, 2],
      [5, 3],
    ])
    expect(ofType(events, 'reminder').map((e) => [e.seq, e.placement])).toEqual([[5, 'messages[7]']])
    expect(occurrences(result!.text, GENTLE)).toBe(1)
    expect(guard.snapshot()).toMatchObject([{ agentId: 1, count: 3, nextThreshold: 5 }])
  })

  test('a model that hands out the same call ids every run: a different call under a known id is a new step', () => {
    const guard = createWireGuard()
    drive(guard, requests({ turns: [{ prompt: 'go' }, ...repeat(READ, 3)] }, openaiChatBody))
    const other = { name: 'read_file', args: { path: 'b.txt' } }
    const [result] = drive(guard, [openaiChatBody({ turns: [{ prompt: 'go' }, ...repeat(other, 2)] })])
    expect(ofType(result!.inspection!.events, 'call').map((e) => [e.seq, e.canonicalArguments, e.count])).toEqual([
      [4, '{"path":"b.txt"}', 1],
      [5, '{"path":"b.txt"}', 2],
    ])
    expect(result!.inspection!.body).toBeUndefined()
  })

  test('a shorter history (the conversation started over) drops what it no longer holds', () => {
    const guard = createWireGuard()
    const bodies = requests({ turns: [{ prompt: 'go' }, ...repeat(READ, 4)] }, openaiChatBody)
    drive(guard, bodies)
    const [again] = drive(guard, [bodies[1]!])
    expect(again!.inspection!.events.map((e) => e.type)).toEqual(['request'])
    const [next] = drive(guard, [bodies[3]!])
    expect(ofType(next!.inspection!.events, 'call').map((e) => [e.seq, e.count])).toEqual([
      [5, 2],
      [6, 3],
    ])
    expect(occurrences(next!.text, GENTLE)).toBe(1)
  })

  test("the snapshot lists every wire agent with its chain, never the page's own", () => {
    const guard = createWireGuard({ hookSaw: (tool) => tool === 'hooked' })
    drive(guard, requests(LOOP, openaiChatBody).slice(0, 4))
    drive(guard, [openaiChatBody({ system: 'own', turns: [{ prompt: 'x' }, { calls: [{ name: 'hooked', args: {} }] }] })])
    drive(guard, [anthropicBody({ system: 'bookkeeping', turns: [{ prompt: 'x' }, { calls: [{ name: 'todo_write', args: {} }] }] })])
    expect(guard.snapshot()).toEqual([
      { agentId: 1, format: 'openai-chat', label: 'You are a coding agent. Fix the failing…', tool: 'read_file', canonicalArguments: '{"path":"a.txt"}', count: 3, nextThreshold: 5 },
      { agentId: 2, format: 'anthropic', label: 'bookkeeping', count: 0, nextThreshold: 3 },
    ])
  })

  test('the least recently seen conversation is forgotten past the cap', () => {
    const guard = createWireGuard({ maxConversations: 2 })
    const agent = (name: string) => openaiChatBody({ system: name, turns: [{ prompt: 'go' }, { calls: [READ] }] })
    const ids = (body: Body) => ofType(drive(guard, [body])[0]!.inspection!.events, 'agent').map((e) => e.agentId)
    expect(ids(agent('a'))).toEqual([1])
    expect(ids(agent('b'))).toEqual([2])
    expect(ids(agent('a'))).toEqual([])
    expect(ids(agent('c'))).toEqual([3])
    expect(ids(agent('a'))).toEqual([])
    expect(ids(agent('b'))).toEqual([4])
  })
})
