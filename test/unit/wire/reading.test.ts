import { describe, expect, test } from 'vitest'
import { createRepeatToolGuard } from '../../../engine/index.ts'
import { isReminderContent, partText, plainText } from '../../../engine/wire/content.ts'
import { createHistory } from '../../../engine/wire/history.ts'
import { conversationKey, conversationLabel } from '../../../engine/wire/identity.ts'
import { isGuardReminder } from '../../../engine/wire/reminder-text.ts'
import { detailed, GENTLE } from '../../fixtures/wire/reminders.ts'

describe("recognising the guard's reminders", () => {
  test('both texts, for any tool, count and arguments, including a cut preview', () => {
    expect(isGuardReminder(GENTLE)).toBe(true)
    expect(isGuardReminder(detailed('read_file', 5, '{"path":"a"}'))).toBe(true)
    expect(isGuardReminder(detailed('x', 99, '{"t":"aaaa… (+9000 more chars)'))).toBe(true)
  })

  test('what the engine hands out is recognised', () => {
    const guard = createRepeatToolGuard({ thresholds: [2, 3] })
    const exec = { agent: {}, name: 'grep', arguments: { q: 'x'.repeat(900) } }
    guard.observe(exec)
    expect(isGuardReminder(guard.observe(exec)!.content[0].text)).toBe(true)
    expect(isGuardReminder(guard.observe(exec)!.content[0].text)).toBe(true)
  })

  test("the opt-in detectors' texts too: same-tool runs and cycles", () => {
    const sameTool = createRepeatToolGuard({ thresholds: [2, 3], countBy: 'tool' })
    const agent = {}
    sameTool.observe({ agent, name: 'grep', arguments: { q: 1 } })
    expect(isGuardReminder(sameTool.observe({ agent, name: 'grep', arguments: { q: 2 } })!.content[0].text)).toBe(true)
    expect(isGuardReminder(sameTool.observe({ agent, name: 'grep', arguments: { q: 3 } })!.content[0].text)).toBe(true)
    const cycles = createRepeatToolGuard({ cycles: { maxPeriod: 3, repeats: 2 } })
    const calls = ['grep', 'read_file', 'write_file', 'grep', 'read_file', 'write_file']
    const texts = calls.flatMap((name) => cycles.observe({ agent, name, arguments: { path: 'a' } })?.content[0].text ?? [])
    expect(texts).toHaveLength(1)
    expect(isGuardReminder(texts[0]!)).toBe(true)
    expect(isGuardReminder(texts[0]!.replace('keeps coming back', 'comes back'))).toBe(false)
  })

  test('anything else is not', () => {
    expect(isGuardReminder(`${GENTLE} `)).toBe(false)
    expect(isGuardReminder('Repeated tool call detected: please stop')).toBe(false)
    expect(isGuardReminder(detailed('t', 3, '{}').replace('finish the task', 'go on'))).toBe(false)
    expect(isGuardReminder('')).toBe(false)
  })
})

describe('message contents', () => {
  test('text parts of every format', () => {
    expect(partText({ type: 'text', text: 'a' })).toBe('a')
    expect(partText({ type: 'input_text', text: 'b' })).toBe('b')
    expect(partText({ text: 'c' })).toBe('c')
    expect(partText({ type: 'output_text', text: 'd' })).toBeUndefined()
    expect(partText({ type: 'text' })).toBeUndefined()
    expect(partText('e')).toBeUndefined()
  })

  test('reminder contents are nothing but reminders', () => {
    expect(isReminderContent(GENTLE)).toBe(true)
    expect(isReminderContent([{ type: 'text', text: GENTLE }, { text: GENTLE }])).toBe(true)
    expect(
      isReminderContent([
        { type: 'text', text: GENTLE },
        { type: 'text', text: 'and more' },
      ]),
    ).toBe(false)
    expect(isReminderContent([])).toBe(false)
    expect(isReminderContent(undefined)).toBe(false)
  })

  test('plain text reads strings, text fields, contents and parts, and keeps only the head', () => {
    const system = [{ type: 'text', text: 'one' }, { role: 'system', content: 'two' }, { parts: [{ text: 'three' }, { inlineData: {} }] }, 4]
    expect(plainText(system, 100)).toEqual({ text: 'one two three', length: 11 })
    expect(plainText(['abcdef', 'ghi'], 4)).toEqual({ text: 'abcd', length: 9 })
    expect(plainText(undefined, 10)).toEqual({ text: '', length: 0 })
  })
})

describe('history', () => {
  test('prompts in a row reset once; the first prompt is the identity; reminders are noted, never prompts', () => {
    const history = createHistory('sys')
    history.user('first')
    history.user([{ type: 'text', text: 'second' }])
    history.user(GENTLE)
    history.user([{ type: 'tool_result', tool_use_id: 'x' }])
    history.user([{ functionResponse: {} }, { text: GENTLE }])
    history.step([{ name: 'g', arguments: { a: 1 }, isError: false }], { path: ['x'], index: 1 }, false)
    history.user(null)
    const conversation = history.done()
    expect(conversation.items.map((i) => i.kind)).toEqual(['prompt', 'step'])
    expect(conversation.firstPrompt).toBe('first')
    expect(conversation.carriesReminders).toBe(true)
  })

  test('steps are told apart by call ids, names and arguments', () => {
    const history = createHistory(undefined)
    const at = { path: [], index: 0 }
    history.step(
      [
        { id: 'a', name: 'g', arguments: '{}', isError: false },
        { id: 'b', name: 'g', arguments: '{}', isError: false },
      ],
      at,
      false,
    )
    history.step(
      [
        { name: 'g', arguments: { q: 1 }, isError: false },
        { id: '', name: 'h', arguments: '{"q":2}', isError: false },
      ],
      at,
      false,
    )
    expect(history.done().items.map((i) => (i.kind === 'step' ? i.key : ''))).toEqual(['a\u0001g\u0001{}\u0000b\u0001g\u0001{}', '\u0001g\u0001{"q":1}\u0000\u0001h\u0001{"q":2}'])
  })
})

describe('identity and label', () => {
  const conversation = (system: unknown, firstPrompt: unknown) => ({ system, firstPrompt, items: [], carriesReminders: false })

  test('format, system prompt and first prompt make the key; long texts differ by their length too', () => {
    const long = 'x'.repeat(5_000)
    const keys = new Set([
      conversationKey('openai-chat', conversation('a', 'b')),
      conversationKey('anthropic', conversation('a', 'b')),
      conversationKey('openai-chat', conversation('a', 'c')),
      conversationKey('openai-chat', conversation(long, 'b')),
      conversationKey('openai-chat', conversation(`${long}y`, 'b')),
    ])
    expect(keys.size).toBe(5)
    expect(conversationKey('gemini', conversation({ parts: [{ text: 'a' }] }, 'b'))).toBe(conversationKey('gemini', conversation('a', 'b')))
  })

  test('the label is the first words, cut with an ellipsis', () => {
    expect(conversationLabel('gemini', conversation(undefined, undefined))).toBe('Gemini agent')
    expect(conversationLabel('anthropic', conversation('  ', [{ type: 'text', text: 'Plan the trip' }]))).toBe('Plan the trip')
    expect(conversationLabel('openai-responses', conversation('one two three four five six seven eight nine', 'x'))).toBe('one two three four five six seven eight…')
  })
})
