// The opt-in detectors in zero-code mode: result-aware runs over the results each request carries.
import { describe, expect, test } from 'vitest'
import { RECOMMENDED_CONFIG } from '../../../engine/index.ts'
import { createWireGuard } from '../../../engine/wire/index.ts'
import { anthropicBody, openaiChatBody, requests, type Body, type Script, type Turn } from '../../fixtures/wire/conversations.ts'
import { occurrences } from '../../fixtures/wire/placements.ts'
import { detailed, GENTLE } from '../../fixtures/wire/reminders.ts'
import { FORMATS, SYSTEM, configWith, drive, type Results, eventsOf, ofType, run, poll, remindersOf } from './support/detector-runs.ts'

describe.each(FORMATS)('%s: result-aware runs compare the results the request carries', (format) => {
  const aware = configWith({ resultAware: true })

  test('a poll whose result changes every time is progress: no reminder, and each change resets the run', () => {
    const results = run(
      format,
      [1, 2, 3, 4, 5, 6].map((n) => poll(`building: ${n * 10}%`)),
      aware,
    )
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
    const changing = run(
      format,
      [1, 2, 3, 4, 5, 6].map((n) => poll(`building: ${n * 10}%`)),
      RECOMMENDED_CONFIG,
    )
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
    remindersOf(
      drive(
        createWireGuard(),
        requests(script, (s) => withContent(build(s), content)),
        aware,
      ),
    )

  test.each([
    ['openai-chat', openaiChatBody],
    ['anthropic', anthropicBody],
  ] as const)('%s: a list of text parts is its text, so the JSON in it is compared as data', (_format, build) => {
    const parts = (n: number) => [{ type: 'text', text: `{"state":"queued","timestamp":${n}}` }]
    expect(runWith(build, parts)).toEqual([
      ['build_status', 'gentle', 3],
      ['build_status', 'detailed', 5],
    ])
    const twoParts = (n: number) => [
      { type: 'text', text: 'state:' },
      { type: 'text', text: `${n}` },
    ]
    expect(runWith(build, twoParts)).toEqual([])
  })

  test('parts that are not all text (an image) are compared as they are', () => {
    const image = (n: number) => [
      { type: 'text', text: 'screen' },
      { type: 'image', source: { data: n % 2 === 0 ? 'a' : 'b' } },
    ]
    expect(runWith(anthropicBody, image)).toEqual([])
    const sameImage = () => [
      { type: 'text', text: 'screen' },
      { type: 'image', source: { data: 'a' } },
    ]
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
