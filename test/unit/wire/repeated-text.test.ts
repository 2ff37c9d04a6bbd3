// Repeated answers in zero-code mode (docs/detectors.md, "Repeated answers"): the model giving the
// same answer `after` times in a row, read from each request's history, reminded right after the
// last of them, in every format.
import { describe, expect, test } from 'vitest'
import { RECOMMENDED_CONFIG } from '../../../engine/index.ts'
import { createWireGuard } from '../../../engine/wire/index.ts'
import { toPanelEvent } from '../../../extension/src/protocol/from-wire.ts'
import { checkPanelEvent } from '../../../extension/src/protocol/validate.ts'
import { BUILDERS, type Turn } from '../../fixtures/wire/conversations.ts'
import { historyOf, occurrences, reminderTextOf, valueAt } from '../../fixtures/wire/placements.ts'
import { FORMATS, SYSTEM, configWith, drive, eventsOf, ofType } from './support/detector-runs.ts'
import { GENTLE } from '../../fixtures/wire/reminders.ts'
import { repeatedTextReminder } from './support/round-two.ts'

const READ: Turn = { calls: [{ name: 'read_file', args: { path: 'a.ts' } }] }

/** The agent reads a file, then answers `answers` in turn, each answer followed by the user's "continue" (a step goes straight on). */
function chat(format: keyof typeof BUILDERS, answers: readonly (string | Turn)[], config = configWith({ repeatedText: { after: 2 } })) {
  const turns: Turn[] = [{ prompt: 'fix the build' }, READ]
  const bodies = answers.map((answer) => {
    if (typeof answer === 'string') turns.push({ answer }, { prompt: 'continue' })
    else turns.push(answer)
    return BUILDERS[format]({ system: SYSTEM, turns })
  })
  return drive(createWireGuard(), bodies, config)
}

const answerReminders = (results: ReturnType<typeof chat>) => ofType(eventsOf(results), 'reminder').map((e) => [e.tool, e.level, e.detector, e.count, e.message.source.summary])

describe.each(FORMATS)('%s: repeatedText', (format) => {
  test('the same answer fires at after, twice and three times that, then stays silent', () => {
    const results = chat(format, Array(8).fill('Done.'))
    expect(answerReminders(results)).toEqual([2, 4, 6].map((count) => ['answer', 'repeated-text', 'repeated-text', count, `same answer × ${count}`]))
    expect(ofType(eventsOf(results), 'reminder').map((e) => e.message.content[0].text)).toEqual([2, 4, 6].map(repeatedTextReminder))
  })

  test('the reminder goes right after the last repeated answer, and every later request carries it there once', () => {
    const results = chat(format, Array(4).fill('Done.'))
    const [second] = ofType(eventsOf(results), 'reminder')
    expect(results[1]!.events).toContain(second)
    const text = repeatedTextReminder(2)
    for (const { sent, text: json } of results.slice(1)) {
      expect(reminderTextOf(valueAt(sent, second!.placement))).toBe(text)
      expect(occurrences(json, text)).toBe(1)
      // Right before it, the second answer, as the page sent it.
      const index = Number(/\[(\d+)\]$/.exec(second!.placement)![1])
      expect(JSON.stringify(historyOf(sent)[index - 1])).toContain('Done.')
    }
    expect(occurrences(results[0]!.text, text)).toBe(0)
  })

  test('the rewritten body is the page’s with the one reminder more', () => {
    const [page] = [BUILDERS[format]({ system: SYSTEM, turns: [{ prompt: 'fix the build' }, READ, { answer: 'Done.' }, { prompt: 'continue' }, { answer: 'Done.' }, { prompt: 'continue' }] })]
    const [result] = drive(createWireGuard(), [page!], configWith({ repeatedText: { after: 2 } }))
    const history = historyOf(page!)
    const sentHistory = historyOf(result!.sent)
    expect(sentHistory).toHaveLength(history.length + 1)
    expect(sentHistory.filter((_, i) => i !== history.length - 1)).toEqual(history)
  })

  test('a different answer, or a tool call between two answers, starts the run over', () => {
    expect(answerReminders(chat(format, ['Done.', 'Done!', 'Done.', READ, 'Done.']))).toEqual([])
    expect(answerReminders(chat(format, ['Done.', READ, 'Done.', 'Done.']))).toEqual([['answer', 'repeated-text', 'repeated-text', 2, 'same answer × 2']])
  })

  test('a later tool loop’s reminder is named where it sits, after the answer reminder went in before it', () => {
    const results = chat(format, ['Done.', 'Done.', READ, READ, READ])
    const reminders = ofType(eventsOf(results), 'reminder')
    expect(reminders.map((e) => [e.level, e.count])).toEqual([
      ['repeated-text', 2],
      ['gentle', 3],
    ])
    const last = results[results.length - 1]!.sent
    expect(reminders.map((e) => reminderTextOf(valueAt(last, e.placement)))).toEqual([repeatedTextReminder(2), GENTLE])
  })

  test('without repeatedText nothing is inserted, whatever the answers', () => {
    const results = chat(format, Array(4).fill('Done.'), RECOMMENDED_CONFIG)
    expect(ofType(eventsOf(results), 'reminder')).toEqual([])
    expect(results.every(({ sent, text }) => text === JSON.stringify(sent) && !text.includes('same answer'))).toBe(true)
  })

  test('a history that already holds the reminder is the page’s own agent', () => {
    const results = chat(format, Array(3).fill('Done.'))
    expect(createWireGuard().inspect(results[2]!.text, configWith({ repeatedText: { after: 2 } }))).toBeUndefined()
  })

  test('the panel receives a valid repeated-text reminder, with its waste', () => {
    const [reminder] = ofType(eventsOf(chat(format, ['Done.', 'Done.'])), 'reminder')
    expect(reminder).toMatchObject({ wasteMs: expect.any(Number) })
    // No response of these answers was read: no tokens are known, which is not zero tokens.
    expect(reminder).not.toHaveProperty('wasteTokens')
    const event = toPanelEvent(reminder!, 'https://llm.test/v1')
    expect(event).toMatchObject({ type: 'reminder', level: 'repeated-text', detector: 'repeated-text', count: 2, placement: reminder!.placement })
    expect(checkPanelEvent(event)).toEqual({ ok: true, value: event })
  })
})

test('turning repeatedText off later keeps what the provider already saw, and adds nothing', () => {
  const guard = createWireGuard()
  const turns: Turn[] = [{ prompt: 'fix the build' }, READ]
  const body = (n: number) => {
    while (turns.length < 2 + 2 * n) turns.push({ answer: 'Done.' }, { prompt: 'continue' })
    return BUILDERS['openai-chat']({ system: SYSTEM, turns })
  }
  drive(guard, [body(2)], configWith({ repeatedText: { after: 2 } }))
  const [later] = drive(guard, [body(4)], RECOMMENDED_CONFIG)
  expect(occurrences(later!.text, repeatedTextReminder(2))).toBe(1)
  expect(occurrences(later!.text, repeatedTextReminder(4))).toBe(0)
  expect(ofType(later!.events, 'reminder')).toEqual([])
})
