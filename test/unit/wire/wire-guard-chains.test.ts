// The wire guard's chain rules are the engine's own.
import { describe, expect, test } from 'vitest'
import { resolveConfig } from '../../../engine/index.ts'
import { createWireGuard } from '../../../engine/wire/index.ts'
import { anthropicBody, BUILDERS, geminiBody, openaiChatBody, repeat, requests, type Script } from '../../fixtures/wire/conversations.ts'
import { reminderTextOf, valueAt } from '../../fixtures/wire/placements.ts'
import { detailed } from '../../fixtures/wire/reminders.ts'
import { READ, drive, eventsOf, ofType } from './support/wire-guard-drive.ts'

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
      ['read_file', true, 1],
      ['grep', true, 1],
      ['read_file', true, 1],
      ['todo_write', false, 1],
      ['read_file', true, 2],
      ['todo_write', false, 2],
      ['read_file', true, 3],
    ])
    expect(ofType(events, 'chain-reset').map((e) => e.reason)).toEqual(['different-call', 'different-call'])
    expect(ofType(events, 'reminder').map((e) => e.placement)).toEqual(['messages[15]'])
  })

  test('parallel identical calls in one step count in order; several reminders at one place stay in order', () => {
    const config = resolveConfig({ thresholds: [2, 3] })
    const script: Script = { turns: [{ prompt: 'go' }, { calls: [READ, READ, READ] }] }
    for (const [format, place] of [
      ['openai-chat', 'messages'],
      ['gemini', 'contents'],
    ] as const) {
      const [, result] = drive(createWireGuard(), requests(script, BUILDERS[format]), config)
      const reminders = ofType(result!.inspection!.events, 'reminder')
      expect(reminders.map((e) => [e.level, e.count, e.seq])).toEqual([
        ['gentle', 2, 2],
        ['detailed', 3, 3],
      ])
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
