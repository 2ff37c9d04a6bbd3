// The opt-in detectors in zero-code mode: cycles across requests, per-tool settings, and stopAfter
// reported as would-block.
import { describe, expect, test } from 'vitest'
import { RECOMMENDED_CONFIG } from '../../../engine/index.ts'
import { createWireGuard } from '../../../engine/wire/index.ts'
import { toPanelEvent } from '../../../extension/src/protocol/from-wire.ts'
import { checkPanelEvent } from '../../../extension/src/protocol/validate.ts'
import { BUILDERS, type Script, type ScriptedCall, type Turn } from '../../fixtures/wire/conversations.ts'
import { occurrences, reminderTextOf, valueAt } from '../../fixtures/wire/placements.ts'
import { GENTLE } from '../../fixtures/wire/reminders.ts'
import { FORMATS, SYSTEM, configWith, drive, eventsOf, ofType, run, poll, remindersOf, A, B, CYCLE_TEXT_START } from './support/detector-runs.ts'

describe.each(FORMATS)('%s: a cycle spans requests', (format) => {
  const config = configWith({ cycles: { maxPeriod: 2, repeats: 3 } })
  const script = (steps: number): Script => ({
    system: SYSTEM,
    turns: [{ prompt: 'compare the two files' }, ...Array.from({ length: steps }, (_, n): Turn => ({ calls: [n % 2 === 0 ? A : B] }))],
  })
  // A B | A B | A B: the cycle completes in the third request; a fourth adds one more A.
  const guard = createWireGuard()
  const results = drive(
    guard,
    [2, 4, 6, 7].map((steps) => BUILDERS[format](script(steps))),
    config,
  )
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

  test("each run follows its own tool's thresholds, across requests", () => {
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
    const event = toPanelEvent(blocked, 'https://llm.test/v1/chat')
    expect(event).toMatchObject({ type: 'blocked', agentId: `wire:${blocked.agentId}`, wouldBlock: true })
    expect(checkPanelEvent(event)).toEqual({ ok: true, value: event })
  })
})
