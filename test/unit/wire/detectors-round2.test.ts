// The round-2 detectors in zero-code mode (docs/detectors.md, "Volatile argument keys, error runs,
// near repeats"): ignored argument keys, near repeats and error runs over the calls each format's
// request history carries.
import { describe, expect, test } from 'vitest'
import { RECOMMENDED_CONFIG } from '../../../engine/index.ts'
import type { ScriptedCall, Turn } from '../../fixtures/wire/conversations.ts'
import { occurrences, reminderTextOf, valueAt } from '../../fixtures/wire/placements.ts'
import { detailed, GENTLE } from '../../fixtures/wire/reminders.ts'
import { FORMATS, configWith, eventsOf, ofType, run, remindersOf } from './support/detector-runs.ts'
import { SIMILAR_TEXT, errorRunText } from './support/round-two.ts'

const QUERIES = ['how do I configure auth', 'configure auth', 'auth configuration']
const search = (query: string): Turn => ({ calls: [{ name: 'search', args: { query } }] })

describe.each(FORMATS)('%s: ignoreArgumentKeys', (format) => {
  const stamped = [1, 2, 3, 4, 5].map((n): Turn => ({ calls: [{ name: 'read_file', args: { path: 'a.ts', requestId: `r${n}` } }] }))

  test('calls that differ only in an ignored key are one run: reminders at 3 and 5, the preview as called', () => {
    const results = run(format, stamped, configWith({ ignoreArgumentKeys: ['requestId'] }))
    expect(remindersOf(results)).toEqual([
      ['read_file', 'gentle', 3],
      ['read_file', 'detailed', 5],
    ])
    expect(occurrences(results[5]!.text, GENTLE)).toBe(1)
    expect(occurrences(results[5]!.text, detailed('read_file', 5, '{"path":"a.ts","requestId":"r5"}'))).toBe(1)
  })

  test('without it the fresh ids make every call new: nothing is inserted', () => {
    const results = run(format, stamped, RECOMMENDED_CONFIG)
    expect(remindersOf(results)).toEqual([])
    expect(results.every(({ text }) => !text.includes(GENTLE))).toBe(true)
  })
})

describe.each(FORMATS)('%s: similar', (format) => {
  const config = configWith({ similar: { threshold: 0.7, minCalls: 3 } })

  test('three rewordings of one search remind at the third, with the exact text after its result', () => {
    const results = run(format, QUERIES.map(search), config)
    const reminders = ofType(eventsOf(results), 'reminder')
    expect(reminders.map((e) => [e.tool, e.level, e.detector, e.count, e.message.source.summary])).toEqual([['search', 'similar', 'similar', 3, 'search ≈ × 3']])
    const text = SIMILAR_TEXT('search', 3, '{"query":"auth configuration"}')
    expect(reminders[0]!.message.content[0].text).toBe(text)
    expect(reminderTextOf(valueAt(results[3]!.sent, reminders[0]!.placement))).toBe(text)
    expect(occurrences(results[3]!.text, text)).toBe(1)
  })

  test('the default config sees three different calls', () => {
    expect(remindersOf(run(format, QUERIES.map(search), RECOMMENDED_CONFIG))).toEqual([])
  })
})

const failing = (n: number): ScriptedCall => ({ name: 'deploy', args: { attempt: n }, result: `timeout ${n}`, isError: true })

// The formats whose results carry an error flag (docs/zero-code.md, "The opt-in detectors on the wire").
describe.each(['anthropic', 'gemini'] as const)('%s: errorRuns', (format) => {
  const config = configWith({ errorRuns: { after: 3 } })
  const errorPreview = { anthropic: 'timeout 3', gemini: '{"error":"timeout 3"}' }[format]

  test('one tool failing three times with other arguments reminds at the third, quoting the last error', () => {
    const results = run(
      format,
      [1, 2, 3].map((n): Turn => ({ calls: [failing(n)] })),
      config,
    )
    const reminders = ofType(eventsOf(results), 'reminder')
    expect(reminders.map((e) => [e.tool, e.level, e.detector, e.count, e.message.source.summary])).toEqual([['deploy', 'error-run', 'error-run', 3, 'deploy errors × 3']])
    const text = errorRunText('deploy', 3, errorPreview)
    expect(reminderTextOf(valueAt(results[3]!.sent, reminders[0]!.placement))).toBe(text)
  })

  test('a success between the failures ends the run', () => {
    const turns = [failing(1), failing(2), { name: 'deploy', args: { attempt: 3 }, result: 'ok' }, failing(4), failing(5)].map((call): Turn => ({ calls: [call] }))
    expect(remindersOf(run(format, turns, config))).toEqual([])
  })
})

describe.each(['openai-chat', 'openai-responses'] as const)('%s: errorRuns', (format) => {
  test('a tool result carries no error flag, so no error run is counted', () => {
    const results = run(
      format,
      [1, 2, 3, 4].map((n): Turn => ({ calls: [failing(n)] })),
      configWith({ errorRuns: { after: 3 } }),
    )
    expect(ofType(eventsOf(results), 'call').map((e) => e.isError)).toEqual([false, false, false, false])
    expect(remindersOf(results)).toEqual([])
  })
})
