// The wire guard on a model looping on one call: where each format gets its reminders, the same
// result for the same requests, and reminders kept where they were when the config changes.
import { describe, expect, test } from 'vitest'
import { RECOMMENDED_CONFIG, resolveConfig } from '../../../engine/index.ts'
import { createWireGuard } from '../../../engine/wire/index.ts'
import { BUILDERS, openaiChatBody, repeat, requests } from '../../fixtures/wire/conversations.ts'
import { historyOf, occurrences, reminderTextOf, valueAt } from '../../fixtures/wire/placements.ts'
import { detailed, GENTLE } from '../../fixtures/wire/reminders.ts'
import { READ, LOOP, drive, eventsOf, ofType, PLACES, historyKey } from './support/wire-guard-drive.ts'

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

  test("only the history changes: every other field is byte-for-byte the page's", () => {
    results.forEach(({ sent }, n) => {
      const page = requests(LOOP, BUILDERS[format])[n]!
      expect({ ...sent, [historyKey(page)]: null }).toEqual({ ...page, [historyKey(page)]: null })
    })
  })

  test('one agent, each call reported once, one request event per request', () => {
    expect(ofType(events, 'agent')).toEqual([{ type: 'agent', at: expect.any(Number), agentId: 1, format, label: 'You are a coding agent. Fix the failing…' }])
    expect(ofType(events, 'call').map((e) => [e.seq, e.count])).toEqual([
      [1, 1],
      [2, 2],
      [3, 3],
      [4, 4],
      [5, 5],
      [6, 6],
    ])
    expect(ofType(events, 'request').map((e) => [e.calls, e.remindersInserted, e.rewritten])).toEqual([
      [1, 0, false],
      [2, 0, false],
      [3, 1, true],
      [4, 1, true],
      [5, 2, true],
      [6, 2, true],
    ])
  })
})

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
