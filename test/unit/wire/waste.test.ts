// Waste in zero-code mode (docs/zero-code.md, "Waste"): each call timed by the moment the page read
// the response that made it, and the tokens of the responses that made a run's calls after the
// first, read from each response's usage as the page reads it, in every format, whole or streamed.
import { describe, expect, test } from 'vitest'
import { RECOMMENDED_CONFIG, type GuardConfig } from '../../../engine/index.ts'
import { createWireGuard, type WireEvent } from '../../../engine/wire/index.ts'
import { toPanelEvent } from '../../../extension/src/protocol/from-wire.ts'
import { checkPanelEvent } from '../../../extension/src/protocol/validate.ts'
import { BUILDERS, type Turn } from '../../fixtures/wire/conversations.ts'
import { FORMATS, SYSTEM, configWith, ofType } from './support/detector-runs.ts'
import { RESPONSES, type Format, type Made } from './support/usage-responses.ts'

const READ = { name: 'read_file', args: { path: 'a.ts' } }

/**
 * The page's loop: each request is inspected, then the page reads its response (in pieces) and
 * finishes at second `n`; the response made call `n` with `100 + n` tokens.
 */
function loop(format: Format, calls: number, config: GuardConfig, stream: boolean) {
  const guard = createWireGuard()
  const turns: Turn[] = [{ prompt: 'read the file' }]
  const events: WireEvent[] = []
  const reading: (boolean | undefined)[] = []
  for (let n = 1; n <= calls + 1; n++) {
    const text = JSON.stringify(BUILDERS[format]({ system: SYSTEM, turns }))
    events.push(...(guard.inspect(text, config)?.events ?? []))
    const response = guard.openResponse(text, config)
    reading.push(response !== undefined)
    if (response && n <= calls) {
      const made: Made = { call: n, ...READ, input: 90, output: 10 + n }
      const whole = RESPONSES[format](made, stream)
      for (let at = 0; at < whole.length; at += 7) response.push(whole.slice(at, at + 7))
      response.end(1_000 * n)
    }
    turns.push({ calls: [READ] })
  }
  return { events, reading }
}

const wasteOf = (events: readonly WireEvent[]) => events.flatMap((e) => (e.type === 'reminder' || e.type === 'blocked' ? [[e.type, e.count, e.wasteMs, e.wasteTokens]] : []))

describe.each(FORMATS)('%s: waste', (format) => {
  test.each([false, true])('a loop reports the time between the responses and the tokens of those after the first (streamed: %s)', (stream) => {
    const { events } = loop(format, 5, configWith({ errorRuns: { after: 3 } }), stream)
    // Call n's response was read at n seconds and cost 100 + n tokens.
    expect(wasteOf(events)).toEqual([
      ['reminder', 3, 2_000, 102 + 103],
      ['reminder', 5, 4_000, 102 + 103 + 104 + 105],
    ])
  })

  test('a would-block counts the response that made the call it concerns', () => {
    const { events } = loop(format, 4, configWith({ stopAfter: 3 }), false)
    expect(wasteOf(events)).toEqual([
      ['reminder', 3, 2_000, 205],
      ['blocked', 3, 3_000, 102 + 103 + 104],
    ])
  })

  test('with no opt-in detector no response is read and the events carry no waste, as before', () => {
    const { events, reading } = loop(format, 5, RECOMMENDED_CONFIG, false)
    expect(reading.every((read) => !read)).toBe(true)
    expect(ofType(events, 'reminder').map((e) => Object.keys(e).filter((key) => key.startsWith('waste') || key === 'detector'))).toEqual([[], []])
  })

  test('the panel receives the waste as it is', () => {
    const [reminder] = ofType(loop(format, 3, configWith({ errorRuns: { after: 3 } }), true).events, 'reminder')
    const event = toPanelEvent(reminder!, 'https://llm.test/v1')
    expect(event).toMatchObject({ type: 'reminder', wasteMs: 2_000, wasteTokens: 205 })
    expect(checkPanelEvent(event)).toEqual({ ok: true, value: event })
  })
})

describe.each(FORMATS)('%s: waste of repeated answers', (format) => {
  test('the answers after the first count their responses’ tokens, timed by when the page read them', () => {
    const guard = createWireGuard()
    const config = configWith({ repeatedText: { after: 2 } })
    const turns: Turn[] = [{ prompt: 'fix the build' }, { calls: [READ] }]
    const events: WireEvent[] = []
    for (let n = 1; n <= 3; n++) {
      const text = JSON.stringify(BUILDERS[format]({ system: SYSTEM, turns }))
      events.push(...(guard.inspect(text, config)?.events ?? []))
      const response = guard.openResponse(text, config)!
      response.push(RESPONSES[format]({ answer: 'Done.', input: 50, output: n }, n % 2 === 0))
      response.end(5_000 * n)
      turns.push({ answer: 'Done.' }, { prompt: 'continue' })
    }
    events.push(...(guard.inspect(JSON.stringify(BUILDERS[format]({ system: SYSTEM, turns })), config)?.events ?? []))
    expect(wasteOf(events)).toEqual([['reminder', 2, 5_000, 52]])
  })
})

test('a response that made two calls of the run counts once', () => {
  const guard = createWireGuard()
  const config = configWith({ errorRuns: { after: 3 } })
  const turns: Turn[] = [{ prompt: 'read the file' }]
  const events: WireEvent[] = []
  for (let n = 1; n <= 3; n++) {
    const text = JSON.stringify(BUILDERS['openai-chat']({ system: SYSTEM, turns }))
    events.push(...(guard.inspect(text, config)?.events ?? []))
    // Response n makes calls 2n - 1 and 2n (the builders number calls across the conversation).
    const toolCalls = [2 * n - 1, 2 * n].map((id) => ({ id: `call_${id}`, type: 'function', function: { name: READ.name, arguments: JSON.stringify(READ.args) } }))
    const response = guard.openResponse(text, config)!
    response.push(JSON.stringify({ choices: [{ index: 0, message: { role: 'assistant', content: null, tool_calls: toolCalls } }], usage: { total_tokens: 10 * n } }))
    response.end(1_000 * n)
    turns.push({ calls: [READ, READ] })
  }
  // Calls 1 and 2 came from response 1, 3 from response 2: the gentle reminder at 3 counts response 2 only.
  expect(wasteOf(events)).toEqual([['reminder', 3, 1_000, 20]])
})
