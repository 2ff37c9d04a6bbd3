import { describe, expect, test } from 'vitest'
import { RECOMMENDED_CONFIG, resolveConfig, type GuardConfig } from '../../../engine/index.ts'
import { createWireGuard, type WireEvent, type WireGuard } from '../../../engine/wire/index.ts'
import { openaiChat } from '../../../engine/wire/formats/openai-chat.ts'
import {
  anthropicBody,
  BUILDERS,
  geminiBody,
  openaiChatBody,
  repeat,
  requests,
  type Body,
  type Script,
} from '../../fixtures/wire/conversations.ts'
import { historyOf, occurrences, reminderTextOf, valueAt } from '../../fixtures/wire/placements.ts'
import { detailed, GENTLE } from '../../fixtures/wire/reminders.ts'
import { collectNow } from '../engine/support/gc.ts'

const READ = { name: 'read_file', args: { path: 'a.txt' } }
const LOOP: Script = { system: 'You are a coding agent. Fix the failing test.', turns: [{ prompt: 'make the tests pass' }, ...repeat(READ, 6)] }

/** Sends each body through the guard as the page would, one request after the other. */
function drive(guard: WireGuard, bodies: readonly Body[], config: GuardConfig = RECOMMENDED_CONFIG) {
  return bodies.map((body) => {
    const text = JSON.stringify(body)
    const inspection = guard.inspect(text, config)
    return { sent: JSON.parse(inspection?.body ?? text) as Body, text: inspection?.body ?? text, inspection }
  })
}

const eventsOf = (results: ReturnType<typeof drive>) => results.flatMap((r) => r.inspection?.events ?? [])
const ofType = <T extends WireEvent['type']>(events: readonly WireEvent[], type: T) =>
  events.filter((e): e is Extract<WireEvent, { type: T }> => e.type === type)

const PLACES = {
  'openai-chat': { gentle: 'messages[8]', detailed: 'messages[13]' },
  'openai-responses': { gentle: 'input[7]', detailed: 'input[12]' },
  anthropic: { gentle: 'messages[6].content[1]', detailed: 'messages[10].content[1]' },
  gemini: { gentle: 'contents[7]', detailed: 'contents[12]' },
} as const

describe.each(Object.keys(PLACES) as (keyof typeof PLACES)[])('%s: a model looping on one call', (format) => {
  const results = drive(createWireGuard(), requests(LOOP, BUILDERS[format]))
  const events = eventsOf(results)

  test('the first request (no tool call yet) is left alone and shows no agent', () => {
    expect(results[0]!.inspection).toBeUndefined()
  })

  test('the gentle reminder follows the third result, the detailed one the fifth, exactly as the engine words them', () => {
    const last = results[results.length - 1]!.sent
    expect(reminderTextOf(valueAt(last, PLACES[format].gentle))).toBe(GENTLE)
    expect(reminderTextOf(valueAt(last, PLACES[format].detailed))).toBe(detailed('read_file', 5, '{"path":"a.txt"}'))
    expect(ofType(events, 'reminder').map((e) => [e.level, e.count, e.placement])).toEqual([
      ['gentle', 3, PLACES[format].gentle],
      ['detailed', 5, PLACES[format].detailed],
    ])
  })

  test('every later request carries each reminder once, at the same place', () => {
    results.slice(3).forEach(({ sent, text }) => {
      expect(reminderTextOf(valueAt(sent, PLACES[format].gentle))).toBe(GENTLE)
      expect(occurrences(text, GENTLE)).toBe(1)
    })
    results.slice(5).forEach(({ sent, text }) => {
      expect(reminderTextOf(valueAt(sent, PLACES[format].detailed))).toContain('consecutive_calls: 5')
      expect(occurrences(text, detailed('read_file', 5, '{"path":"a.txt"}'))).toBe(1)
    })
  })

  test('append-only: what the provider saw last time is the head of the next request', () => {
    for (let n = 1; n < results.length; n++) {
      const before = historyOf(results[n - 1]!.sent)
      expect(historyOf(results[n]!.sent).slice(0, before.length)).toEqual(before)
    }
  })

  test('only the history changes: every other field is byte-for-byte the page\'s', () => {
    results.forEach(({ sent }, n) => {
      const page = requests(LOOP, BUILDERS[format])[n]!
      expect({ ...sent, [historyKey(page)]: null }).toEqual({ ...page, [historyKey(page)]: null })
    })
  })

  test('one agent, each call reported once, one request event per request', () => {
    expect(ofType(events, 'agent')).toEqual([
      { type: 'agent', at: expect.any(Number), agentId: 1, format, label: 'You are a coding agent. Fix the failing…' },
    ])
    expect(ofType(events, 'call').map((e) => [e.seq, e.count])).toEqual([
      [1, 1], [2, 2], [3, 3], [4, 4], [5, 5], [6, 6],
    ])
    expect(ofType(events, 'request').map((e) => [e.calls, e.remindersInserted, e.rewritten])).toEqual([
      [1, 0, false], [2, 0, false], [3, 1, true], [4, 1, true], [5, 2, true], [6, 2, true],
    ])
  })
})

function historyKey(body: Body): string {
  return 'messages' in body ? 'messages' : 'input' in body ? 'input' : 'contents'
}

describe('determinism', () => {
  test('the same request sent twice comes out the same, with no second report of its calls', () => {
    const guard = createWireGuard()
    const body = JSON.stringify(openaiChatBody({ turns: [{ prompt: 'go' }, ...repeat(READ, 3)] }))
    const first = guard.inspect(body, RECOMMENDED_CONFIG)!
    const again = guard.inspect(body, RECOMMENDED_CONFIG)!
    expect(again.body).toBe(first.body)
    expect(again.events.map((e) => e.type)).toEqual(['request'])
  })

  test('a conversation first seen mid-way gets every due reminder, where a fresh guard would put it', () => {
    const bodies = requests(LOOP, openaiChatBody)
    const late = drive(createWireGuard(), bodies.slice(5))[0]!
    const whole = drive(createWireGuard(), bodies)[5]!
    expect(late.text).toBe(whole.text)
  })

  test('the rewrite is a splice: spacing, number spelling and unknown fields stay as the page wrote them', () => {
    const body = openaiChatBody({ turns: [{ prompt: 'go' }, ...repeat(READ, 3)] })
    const pretty = JSON.stringify(body, null, 2).replace('"model": "gpt-test"', '"seed": 12345678901234567890123, "temperature": 1.50, "model": "gpt-test"')
    const out = createWireGuard().inspect(pretty, RECOMMENDED_CONFIG)!.body!
    const insertion = `,${JSON.stringify({ role: 'user', content: GENTLE })}`
    expect(out.replace(insertion, '')).toBe(pretty)
    expect(out).toContain('12345678901234567890123, "temperature": 1.50')
    expect(out.indexOf(insertion)).toBeGreaterThan(0)
  })
})

describe('chain rules come from the engine', () => {
  test('a real user message starts the chain over; the reset is reported', () => {
    const script: Script = { turns: [{ prompt: 'one' }, ...repeat(READ, 2), { prompt: 'two' }, ...repeat(READ, 2)] }
    for (const build of Object.values(BUILDERS)) {
      const results = drive(createWireGuard(), requests(script, build))
      const events = eventsOf(results)
      expect(ofType(events, 'reminder')).toEqual([])
      expect(ofType(events, 'chain-reset').map((e) => [e.reason, e.previousCount])).toEqual([['prompt', 2]])
      expect(ofType(events, 'call').map((e) => e.count)).toEqual([1, 2, 1, 2])
    }
  })

  test('a different call resets; an untracked one is transparent', () => {
    const todo = { name: 'todo_write', args: { items: ['x'] } }
    const grep = { name: 'grep', args: { q: 'x' } }
    const script: Script = { turns: [{ prompt: 'go' }, { calls: [READ] }, { calls: [grep] }, { calls: [READ] }, { calls: [todo] }, { calls: [READ] }, { calls: [todo] }, { calls: [READ] }] }
    const events = eventsOf(drive(createWireGuard(), requests(script, openaiChatBody)))
    expect(ofType(events, 'call').map((e) => [e.tool, e.tracked, e.count])).toEqual([
      ['read_file', true, 1], ['grep', true, 1], ['read_file', true, 1], ['todo_write', false, 1],
      ['read_file', true, 2], ['todo_write', false, 2], ['read_file', true, 3],
    ])
    expect(ofType(events, 'chain-reset').map((e) => e.reason)).toEqual(['different-call', 'different-call'])
    expect(ofType(events, 'reminder').map((e) => e.placement)).toEqual(['messages[15]'])
  })

  test('parallel identical calls in one step count in order; several reminders at one place stay in order', () => {
    const config = resolveConfig({ thresholds: [2, 3] })
    const script: Script = { turns: [{ prompt: 'go' }, { calls: [READ, READ, READ] }] }
    for (const [format, place] of [['openai-chat', 'messages'], ['gemini', 'contents']] as const) {
      const [, result] = drive(createWireGuard(), requests(script, BUILDERS[format]), config)
      const reminders = ofType(result!.inspection!.events, 'reminder')
      expect(reminders.map((e) => [e.level, e.count, e.seq])).toEqual([['gentle', 2, 2], ['detailed', 3, 3]])
      const at = format === 'openai-chat' ? 5 : 3
      expect(reminders.map((e) => e.placement)).toEqual([`${place}[${at}]`, `${place}[${at + 1}]`])
      expect(reminderTextOf(valueAt(result!.sent, `${place}[${at + 1}]`))).toBe(detailed('read_file', 3, '{"path":"a.txt"}'))
    }
  })

  test('an error result still counts (Anthropic is_error, Gemini error response)', () => {
    const failing = { ...READ, isError: true }
    const script: Script = { turns: [{ prompt: 'go' }, ...repeat(failing, 3)] }
    for (const build of [anthropicBody, (s: Script) => geminiBody(s, { ids: true })]) {
      const events = eventsOf(drive(createWireGuard(), requests(script, build)))
      expect(ofType(events, 'call').map((e) => e.isError)).toEqual([true, true, true])
      expect(ofType(events, 'reminder')).toHaveLength(1)
    }
  })

  test('a long argument is cut in the detailed reminder, never in detection', () => {
    const write = { name: 'write_file', args: { path: 'a.txt', text: 'x'.repeat(2_000) } }
    const config = resolveConfig({ thresholds: [2, 3], argumentsPreviewChars: 20 })
    const results = drive(createWireGuard(), requests({ turns: [{ prompt: 'go' }, ...repeat(write, 3)] }, openaiChatBody), config)
    const text = reminderTextOf(valueAt(results[3]!.sent, 'messages[8]'))
    const canonical = JSON.stringify(write.args)
    expect(text).toBe(detailed('write_file', 3, `${canonical.slice(0, 20)}… (+${canonical.length - 20} more chars)`))
  })
})

describe('sticky across config changes', () => {
  test('reminders already sent stay where they were; new ones follow the new config', () => {
    const guard = createWireGuard()
    const bodies = requests({ turns: [{ prompt: 'go' }, ...repeat(READ, 6)] }, openaiChatBody)
    const before = drive(guard, bodies.slice(0, 4))
    expect(reminderTextOf(valueAt(before[3]!.sent, 'messages[7]'))).toBe(GENTLE)
    const after = drive(guard, bodies.slice(4), resolveConfig({ thresholds: [2, 6] }))
    // Count 2 is in the history already sent: no reminder appears there after the fact.
    expect(valueAt(after[0]!.sent, 'messages[5]')).toMatchObject({ role: 'assistant' })
    expect(ofType(eventsOf(after), 'reminder').map((e) => [e.count, e.placement])).toEqual([[6, 'messages[14]']])
    expect(reminderTextOf(valueAt(after[2]!.sent, 'messages[7]'))).toBe(GENTLE)
    expect(reminderTextOf(valueAt(after[2]!.sent, 'messages[14]'))).toBe(detailed('read_file', 6, '{"path":"a.txt"}'))
    expect(occurrences(after[2]!.text, GENTLE)).toBe(1)
  })
})

describe('the page\'s own agent is left to the page', () => {
  test('a conversation whose newest calls the hook reported is neither guarded nor shown', () => {
    const seen: [string, string][] = []
    const guard = createWireGuard({ hookSaw: (tool, args) => (seen.push([tool, args]), true) })
    const results = drive(guard, requests(LOOP, openaiChatBody))
    expect(results.every((r) => r.inspection === undefined)).toBe(true)
    // Decided once, from the first completed step's calls.
    expect(seen).toEqual([['read_file', '{"path":"a.txt"}']])
  })

  test('a conversation the hook did not report is a wire agent', () => {
    const guard = createWireGuard({ hookSaw: () => false })
    expect(ofType(eventsOf(drive(guard, requests(LOOP, openaiChatBody))), 'reminder')).toHaveLength(2)
  })

  /** The page's own requests when it guards itself: its reminder after the third result. */
  const selfGuarded = requests({ turns: [{ prompt: 'go' }, ...repeat(READ, 6)] }, openaiChatBody).map((body, n) => {
    if (n < 3) return body
    const messages = [...(body.messages as unknown[])]
    messages.splice(7, 0, { role: 'user', content: GENTLE })
    return { ...body, messages }
  })

  test('a history that already holds guard reminders is the page\'s agent', () => {
    const results = drive(createWireGuard(), selfGuarded.slice(3))
    results.forEach((r) => expect(r.inspection).toBeUndefined())
  })

  test('a wire agent whose page starts guarding it gets nothing more, and is not shown twice', () => {
    const guard = createWireGuard()
    drive(guard, selfGuarded.slice(0, 3))
    const results = drive(guard, selfGuarded.slice(3))
    results.forEach(({ inspection, text }) => {
      expect(inspection).toEqual({ format: 'openai-chat', events: [] })
      expect(occurrences(text, GENTLE)).toBe(1)
    })
  })

  test('what was inserted before the page took over stays (the provider saw it); the page\'s own reminder is not doubled', () => {
    const guard = createWireGuard()
    const page = requests({ turns: [{ prompt: 'go' }, ...repeat(READ, 6)] }, openaiChatBody)
    drive(guard, page.slice(0, 5))
    const fifth = detailed('read_file', 5, '{"path":"a.txt"}')
    // From the fifth step on, the page puts its own detailed reminder where ours would go.
    const takenOver = page.slice(5).map((body) => {
      const messages = [...(body.messages as unknown[])]
      messages.splice(11, 0, { role: 'user', content: fifth })
      return { ...body, messages }
    })
    const results = drive(guard, takenOver)
    results.forEach(({ inspection, sent, text }) => {
      expect(inspection!.events).toEqual([])
      expect(reminderTextOf(valueAt(sent, 'messages[7]'))).toBe(GENTLE)
      expect(reminderTextOf(valueAt(sent, 'messages[12]'))).toBe(fifth)
      expect(occurrences(text, fifth)).toBe(1)
    })
  })

  test('a taken-over history that forks back to its first prompt shows an empty chain, also once the old one is collected', async () => {
    const guard = createWireGuard()
    const page = requests({ turns: [{ prompt: 'go' }, ...repeat(READ, 6)] }, openaiChatBody)
    drive(guard, page.slice(0, 5))
    const takenOver = { ...page[5]!, messages: [...(page[5]!.messages as unknown[]).slice(0, 7), { role: 'user', content: GENTLE }, ...(page[5]!.messages as unknown[]).slice(7)] }
    expect(drive(guard, [takenOver])[0]!.inspection!.events).toEqual([])
    expect(guard.snapshot()).toMatchObject([{ agentId: 1, count: 4 }])
    // The answer to the first prompt was regenerated: only the prompt is still common.
    const other = { name: 'read_file', args: { path: 'b.txt' } }
    const [fork] = drive(guard, [openaiChatBody({ turns: [{ prompt: 'go' }, ...repeat(other, 2)] })])
    expect(fork!.inspection).toEqual({ format: 'openai-chat', events: [] })
    const empty = [{ agentId: 1, format: 'openai-chat', label: 'go', count: 0, nextThreshold: 3 }]
    expect(guard.snapshot()).toEqual(empty)
    // The chain forked away from is the engine's to drop.
    await collectNow()
    expect(guard.snapshot()).toEqual(empty)
  })

  test('a page reminder is not a user message: it resets nothing', () => {
    const guard = createWireGuard()
    const page = requests({ turns: [{ prompt: 'go' }, ...repeat(READ, 6)] }, openaiChatBody)
    const [result] = drive(guard, [{ ...page[5]!, messages: [...(page[5]!.messages as unknown[]).slice(0, 7), { role: 'user', content: [{ type: 'text', text: GENTLE }] }, ...(page[5]!.messages as unknown[]).slice(7)] }])
    expect(result!.inspection).toBeUndefined()
    expect(openaiChat.walk(JSON.parse(result!.text)).items.map((i) => i.kind)).toEqual(['prompt', 'step', 'step', 'step', 'step', 'step'])
  })
})

describe('agents', () => {
  test('a subagent is its own conversation with its own chain', () => {
    const parent: Script = { system: 'You are the lead agent.', turns: [{ prompt: 'plan' }, ...repeat(READ, 3)] }
    const child: Script = { system: 'You are a search subagent.', turns: [{ prompt: 'find x' }, ...repeat({ name: 'grep', args: { q: 'x' } }, 3)] }
    const guard = createWireGuard()
    const p = requests(parent, anthropicBody)
    const c = requests(child, anthropicBody)
    const results = drive(guard, [p[1]!, c[1]!, p[2]!, c[2]!, p[3]!, c[3]!])
    const events = eventsOf(results)
    expect(ofType(events, 'agent').map((e) => [e.agentId, e.label])).toEqual([[1, 'You are the lead agent.'], [2, 'You are a search subagent.']])
    expect(ofType(events, 'reminder').map((e) => [e.agentId, e.tool])).toEqual([[1, 'read_file'], [2, 'grep']])
    expect(ofType(events, 'call').map((e) => [e.agentId, e.seq, e.count])).toEqual([
      [1, 1, 1], [2, 1, 1], [1, 2, 2], [2, 2, 2], [1, 3, 3], [2, 3, 3],
    ])
  })

  test('labels come from the system prompt\'s first words, else the first prompt, else the format', () => {
    const label = (script: Script, build = openaiChatBody) =>
      ofType(eventsOf(drive(createWireGuard(), requests(script, build))), 'agent')[0]!.label
    expect(label({ system: 'You are a meticulous senior engineer who reviews every pull request twice', turns: [{ prompt: 'go' }, { calls: [READ] }] }))
      .toBe('You are a meticulous senior engineer who reviews…')
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
    expect(ofType(events, 'call').map((e) => [e.seq, e.count])).toEqual([[4, 2], [5, 3]])
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
    expect(ofType(next!.inspection!.events, 'call').map((e) => [e.seq, e.count])).toEqual([[5, 2], [6, 3]])
    expect(occurrences(next!.text, GENTLE)).toBe(1)
  })

  test('the snapshot lists every wire agent with its chain, never the page\'s own', () => {
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

describe('what is not a request to guard', () => {
  const guard = createWireGuard()
  test.each([
    ['not JSON', '{"tool_calls": nope'],
    ['a JSON array', '["tool_calls"]'],
    ['an unknown shape', '{"tool_calls": 1}'],
    ['no tool call in the history', JSON.stringify({ messages: [{ role: 'user', content: 'hi "tool_calls"' }] })],
    ['a call still waiting for its result', JSON.stringify({ messages: [{ role: 'user', content: 'go' }, { role: 'assistant', tool_calls: [{ id: 'c1', function: { name: 'x', arguments: '{}' } }] }] })],
    ['an analytics beacon', JSON.stringify({ event: 'click', at: 1 })],
  ])('%s', (_, text) => {
    expect(guard.inspect(text, RECOMMENDED_CONFIG)).toBeUndefined()
  })

  test('an invalid config is an error for the caller (who sends the request unchanged)', () => {
    const body = JSON.stringify(openaiChatBody({ turns: [{ prompt: 'go' }, { calls: [READ] }] }))
    expect(() => guard.inspect(body, { ...RECOMMENDED_CONFIG, thresholds: [1] })).toThrow(/thresholds/)
  })
})
