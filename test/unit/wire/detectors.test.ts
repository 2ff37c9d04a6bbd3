// The opt-in detectors in zero-code mode: results come from the request body, cycles and per-tool
// runs continue from request to request, and `stopAfter` is only reported ("would block").
import { describe, expect, test } from 'vitest'
import { RECOMMENDED_CONFIG, resolveConfig, type GuardConfig, type GuardConfigInput } from '../../../engine/index.ts'
import { createWireGuard, type WireEvent, type WireGuard } from '../../../engine/wire/index.ts'
import { toInspectorEvent } from '../../../extension/src/page/wire/to-inspector.ts'
import { checkInspectorEvent } from '../../../extension/src/protocol/validate.ts'
import { anthropicBody, BUILDERS, openaiChatBody, requests, type Body, type Script, type ScriptedCall, type Turn } from '../../fixtures/wire/conversations.ts'
import { occurrences, reminderTextOf, valueAt } from '../../fixtures/wire/placements.ts'
import { detailed, GENTLE } from '../../fixtures/wire/reminders.ts'

const FORMATS = Object.keys(BUILDERS) as (keyof typeof BUILDERS)[]
const SYSTEM = 'You are an agent that waits for a build.'

const configWith = (input: GuardConfigInput): GuardConfig => resolveConfig(input, RECOMMENDED_CONFIG)

function drive(guard: WireGuard, bodies: readonly Body[], config: GuardConfig) {
  return bodies.map((body) => {
    const text = JSON.stringify(body)
    const inspection = guard.inspect(text, config)
    return { sent: JSON.parse(inspection?.body ?? text) as Body, text: inspection?.body ?? text, events: inspection?.events ?? [] }
  })
}

type Results = ReturnType<typeof drive>
const eventsOf = (results: Results) => results.flatMap((r) => r.events)
const ofType = <T extends WireEvent['type']>(events: readonly WireEvent[], type: T) =>
  events.filter((e): e is Extract<WireEvent, { type: T }> => e.type === type)

/** A request after every step, each guarded as the page sends it. */
const run = (format: keyof typeof BUILDERS, turns: readonly Turn[], config: GuardConfig) =>
  drive(createWireGuard(), requests({ system: SYSTEM, turns: [{ prompt: 'wait for the build' }, ...turns] }, BUILDERS[format]), config)

const poll = (result: ScriptedCall['result']): Turn => ({ calls: [{ name: 'build_status', args: { id: 7 }, result }] })
const remindersOf = (results: Results) => ofType(eventsOf(results), 'reminder').map((e) => [e.tool, e.level, e.count])

describe.each(FORMATS)('%s: result-aware runs compare the results the request carries', (format) => {
  const aware = configWith({ resultAware: true })

  test('a poll whose result changes every time is progress: no reminder, and each change resets the run', () => {
    const results = run(format, [1, 2, 3, 4, 5, 6].map((n) => poll(`building: ${n * 10}%`)), aware)
    expect(remindersOf(results)).toEqual([])
    expect(ofType(eventsOf(results), 'chain-reset').map((e) => [e.reason, e.previousCount])).toEqual(Array(5).fill(['result-changed', 1]))
    expect(results.every(({ text }) => !text.includes(GENTLE))).toBe(true)
  })

  test('the same poll with the same result is a loop: reminders at 3 and 5, as without the option', () => {
    const results = run(format, Array(6).fill(poll('building: 10%')), aware)
    expect(remindersOf(results)).toEqual([
      ['build_status', 'gentle', 3],
      ['build_status', 'detailed', 5],
    ])
    expect(occurrences(results[6]!.text, GENTLE)).toBe(1)
    expect(occurrences(results[6]!.text, detailed('build_status', 5, '{"id":7}'))).toBe(1)
  })

  test('without resultAware the results are not read: changing results still loop, byte for byte as before', () => {
    const changing = run(format, [1, 2, 3, 4, 5, 6].map((n) => poll(`building: ${n * 10}%`)), RECOMMENDED_CONFIG)
    const same = run(format, Array(6).fill(poll('building: 10%')), RECOMMENDED_CONFIG)
    expect(remindersOf(changing)).toEqual([
      ['build_status', 'gentle', 3],
      ['build_status', 'detailed', 5],
    ])
    const untimed = (results: Results) => eventsOf(results).map(({ at: _, ...event }) => event)
    expect(untimed(changing)).toEqual(untimed(same))
  })

  test('ignoreResultKeys: results that differ only in an ignored key are the same result', () => {
    const turns = [1, 2, 3, 4, 5].map((n) => poll({ status: 'running', meta: { timestamp: 1000 + n, requestId: `r${n}` } }))
    expect(remindersOf(run(format, turns, configWith({ resultAware: true, ignoreResultKeys: ['timestamp', 'requestId'] })))).toEqual([
      ['build_status', 'gentle', 3],
      ['build_status', 'detailed', 5],
    ])
    expect(remindersOf(run(format, turns, configWith({ resultAware: true, ignoreResultKeys: ['timestamp'] })))).toEqual([])
  })
})

// The OpenAI formats carry no error flag on a result; these two do.
describe.each(['anthropic', 'gemini'] as const)('%s: an error result', (format) => {
  test('differs from a success with the same content', () => {
    const turns = [false, true, false, true, false].map((isError): Turn => ({ calls: [{ name: 'build_status', args: { id: 7 }, result: 'failed', isError }] }))
    expect(remindersOf(run(format, turns, configWith({ resultAware: true })))).toEqual([])
    const alwaysFailing = Array<Turn>(5).fill({ calls: [{ name: 'build_status', args: { id: 7 }, result: 'failed', isError: true }] })
    expect(remindersOf(run(format, alwaysFailing, configWith({ resultAware: true })))).toEqual([
      ['build_status', 'gentle', 3],
      ['build_status', 'detailed', 5],
    ])
  })
})

describe('result contents as the formats carry them', () => {
  const aware = configWith({ resultAware: true, ignoreResultKeys: ['timestamp'] })
  const withContent = (body: Body, content: (n: number) => unknown): Body => {
    let n = 0
    const messages = (body.messages as Record<string, unknown>[]).map((message) => {
      if (message.role === 'tool') return { ...message, content: content(++n) }
      if (!Array.isArray(message.content)) return message
      return { ...message, content: message.content.map((block: Record<string, unknown>) => (block.type === 'tool_result' ? { ...block, content: content(++n) } : block)) }
    })
    return { ...body, messages }
  }
  const script: Script = { system: SYSTEM, turns: [{ prompt: 'wait' }, ...Array<Turn>(5).fill(poll('x'))] }
  const runWith = (build: (script: Script) => Body, content: (n: number) => unknown) =>
    remindersOf(drive(createWireGuard(), requests(script, (s) => withContent(build(s), content)), aware))

  test.each([
    ['openai-chat', openaiChatBody],
    ['anthropic', anthropicBody],
  ] as const)('%s: a list of text parts is its text, so the JSON in it is compared as data', (_format, build) => {
    const parts = (n: number) => [{ type: 'text', text: `{"state":"queued","timestamp":${n}}` }]
    expect(runWith(build, parts)).toEqual([
      ['build_status', 'gentle', 3],
      ['build_status', 'detailed', 5],
    ])
    const twoParts = (n: number) => [{ type: 'text', text: 'state:' }, { type: 'text', text: `${n}` }]
    expect(runWith(build, twoParts)).toEqual([])
  })

  test('parts that are not all text (an image) are compared as they are', () => {
    const image = (n: number) => [{ type: 'text', text: 'screen' }, { type: 'image', source: { data: n % 2 === 0 ? 'a' : 'b' } }]
    expect(runWith(anthropicBody, image)).toEqual([])
    const sameImage = () => [{ type: 'text', text: 'screen' }, { type: 'image', source: { data: 'a' } }]
    expect(runWith(anthropicBody, sameImage)).toEqual([
      ['build_status', 'gentle', 3],
      ['build_status', 'detailed', 5],
    ])
    // An empty list is no text: it equals the next empty list.
    expect(runWith(anthropicBody, () => [])).toEqual([
      ['build_status', 'gentle', 3],
      ['build_status', 'detailed', 5],
    ])
  })
})

const A: ScriptedCall = { name: 'read_file', args: { path: 'a.ts' } }
const B: ScriptedCall = { name: 'read_file', args: { path: 'b.ts' } }
const CYCLE_TEXT_START = 'Repeated cycle of tool calls detected:\n- cycle: read_file -> read_file\n- repetitions: 3\n'

describe.each(FORMATS)('%s: a cycle spans requests', (format) => {
  const config = configWith({ cycles: { maxPeriod: 2, repeats: 3 } })
  const script = (steps: number): Script => ({
    system: SYSTEM,
    turns: [{ prompt: 'compare the two files' }, ...Array.from({ length: steps }, (_, n): Turn => ({ calls: [n % 2 === 0 ? A : B] }))],
  })
  // A B | A B | A B: the cycle completes in the third request; a fourth adds one more A.
  const guard = createWireGuard()
  const results = drive(guard, [2, 4, 6, 7].map((steps) => BUILDERS[format](script(steps))), config)
  const cycleEvents = ofType(eventsOf(results), 'reminder')

  test('the cycle reminder fires once, for the sixth call, in the request that completes it', () => {
    expect(cycleEvents.map((e) => [e.level, e.detector, e.count, e.seq])).toEqual([['cycle', 'cycle', 3, 6]])
    expect(results[2]!.events).toContain(cycleEvents[0])
    expect(results.slice(0, 2).every(({ text }) => occurrences(text, GENTLE) === 0 && !text.includes('Repeated cycle'))).toBe(true)
  })

  test('it sits after the sixth result, and every later request repeats it there exactly once', () => {
    const { placement } = cycleEvents[0]!
    for (const { sent, text } of results.slice(2)) {
      expect(reminderTextOf(valueAt(sent, placement))).toMatch(new RegExp(`^${CYCLE_TEXT_START.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`))
      expect(text.split('Repeated cycle of tool calls detected').length - 1).toBe(1)
    }
    expect(ofType(results[3]!.events, 'request')[0]).toMatchObject({ remindersInserted: 1, rewritten: true })
  })

  test('a history that already holds the cycle reminder is recognised as guarded by the page itself', () => {
    expect(createWireGuard().inspect(results[3]!.text, config)).toBeUndefined()
  })

  test('turning cycles off later keeps what the provider already saw, and adds nothing new', () => {
    const later = drive(guard, [BUILDERS[format](script(9))], RECOMMENDED_CONFIG)[0]!
    expect(later.text.split('Repeated cycle of tool calls detected').length - 1).toBe(1)
    expect(ofType(later.events, 'reminder')).toEqual([])
  })
})

describe.each(FORMATS)('%s: per-tool settings', (format) => {
  const WAIT: ScriptedCall = { name: 'wait', args: { seconds: 5 } }
  const READ: ScriptedCall = { name: 'read_file', args: { path: 'a.ts' } }
  const config = configWith({ tools: [{ match: 'wait', thresholds: [2] }] })

  test('each run follows its own tool\'s thresholds, across requests', () => {
    const results = run(format, [...Array(3).fill({ calls: [WAIT] }), ...Array(3).fill({ calls: [READ] })], config)
    expect(remindersOf(results)).toEqual([
      ['wait', 'gentle', 2],
      ['read_file', 'gentle', 3],
    ])
    expect(occurrences(results[6]!.text, GENTLE)).toBe(2)
  })

  test('countBy tool for one tool: its calls with other arguments are one run', () => {
    const scrolls = [1, 2, 3].map((y): Turn => ({ calls: [{ name: 'scroll', args: { y } }] }))
    const config = configWith({ tools: [{ match: 'scroll', countBy: 'tool', thresholds: [3] }] })
    const results = run(format, scrolls, config)
    expect(ofType(eventsOf(results), 'reminder').map((e) => [e.tool, e.detector, e.count])).toEqual([['scroll', 'same-tool', 3]])
    // Its same-tool reminder is the guard's own: a history holding it is guarded by the page itself.
    expect(results[3]!.text).toContain('You are calling the same tool again and again.')
    expect(createWireGuard().inspect(results[3]!.text, config)).toBeUndefined()
  })

  test('resultAware for one tool: its changing results are progress, another tool still loops on its arguments', () => {
    const config = configWith({ tools: [{ match: 'build_status', resultAware: true }] })
    const polls = [1, 2, 3].map((n) => poll(`building: ${n * 10}%`))
    const reads = [1, 2, 3].map((n): Turn => ({ calls: [{ ...READ, result: `version ${n}` }] }))
    expect(remindersOf(run(format, [...polls, ...reads], config))).toEqual([['read_file', 'gentle', 3]])
  })
})

describe.each(FORMATS)('%s: stopAfter would block', (format) => {
  const READ: ScriptedCall = { name: 'read_file', args: { path: 'a.ts' } }
  const turns = Array<Turn>(5).fill({ calls: [READ] })
  const enforced = run(format, turns, configWith({ stopAfter: 3 }))
  const plain = run(format, turns, RECOMMENDED_CONFIG)

  test('the calls past the limit are reported as would-block, once each, before the call they concern', () => {
    const events = eventsOf(enforced)
    expect(ofType(events, 'blocked').map((e) => [e.tool, e.count, e.wouldBlock])).toEqual([
      ['read_file', 3, true],
      ['read_file', 4, true],
    ])
    const fourth = events.findIndex((e) => e.type === 'call' && e.count === 4)
    expect(events[fourth - 1]).toMatchObject({ type: 'blocked', count: 3 })
    expect(ofType(events, 'blocked')[0]!.feedback).toContain('stopAfter: 3')
  })

  test('the request is changed only by the normal reminders', () => {
    expect(enforced.map(({ text }) => text)).toEqual(plain.map(({ text }) => text))
    expect(remindersOf(enforced)).toEqual(remindersOf(plain))
  })

  test('a per-tool null stopAfter reports nothing for that tool', () => {
    const exempt = run(format, turns, configWith({ stopAfter: 3, tools: [{ match: 'read_*', stopAfter: null }] }))
    expect(ofType(eventsOf(exempt), 'blocked')).toEqual([])
  })

  test('the panel receives a valid blocked event marked wouldBlock', () => {
    const blocked = ofType(eventsOf(enforced), 'blocked')[0]!
    const event = toInspectorEvent(blocked, 'https://llm.test/v1/chat')
    expect(event).toMatchObject({ type: 'blocked', agentId: `wire:${blocked.agentId}`, wouldBlock: true })
    expect(checkInspectorEvent(event)).toEqual({ ok: true, value: event })
  })
})
