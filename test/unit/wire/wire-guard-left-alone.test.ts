// What the wire guard leaves alone: the page's own guarded agent, and bodies that are not a
// request to guard.
import { describe, expect, test } from 'vitest'
import { RECOMMENDED_CONFIG } from '../../../engine/index.ts'
import { createWireGuard } from '../../../engine/wire/index.ts'
import { openaiChat } from '../../../engine/wire/formats/openai-chat.ts'
import { openaiChatBody, repeat, requests } from '../../fixtures/wire/conversations.ts'
import { occurrences, reminderTextOf, valueAt } from '../../fixtures/wire/placements.ts'
import { detailed, GENTLE } from '../../fixtures/wire/reminders.ts'
import { collectNow } from '../engine/support/gc.ts'
import { READ, LOOP, drive, eventsOf, ofType } from './support/wire-guard-drive.ts'

describe("the page's own agent is left to the page", () => {
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

  test("a history that already holds guard reminders is the page's agent", () => {
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

  test("what was inserted before the page took over stays (the provider saw it); the page's own reminder is not doubled", () => {
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
    const [result] = drive(guard, [
      { ...page[5]!, messages: [...(page[5]!.messages as unknown[]).slice(0, 7), { role: 'user', content: [{ type: 'text', text: GENTLE }] }, ...(page[5]!.messages as unknown[]).slice(7)] },
    ])
    expect(result!.inspection).toBeUndefined()
    expect(openaiChat.walk(JSON.parse(result!.text)).items.map((i) => i.kind)).toEqual(['prompt', 'step', 'step', 'step', 'step', 'step'])
  })
})

describe('what is not a request to guard', () => {
  const guard = createWireGuard()
  test.each([
    ['not JSON', '{"tool_calls": nope'],
    ['a JSON array', '["tool_calls"]'],
    ['an unknown shape', '{"tool_calls": 1}'],
    ['no tool call in the history', JSON.stringify({ messages: [{ role: 'user', content: 'hi "tool_calls"' }] })],
    [
      'a call still waiting for its result',
      JSON.stringify({
        messages: [
          { role: 'user', content: 'go' },
          { role: 'assistant', tool_calls: [{ id: 'c1', function: { name: 'x', arguments: '{}' } }] },
        ],
      }),
    ],
    ['an analytics beacon', JSON.stringify({ event: 'click', at: 1 })],
  ])('%s', (_, text) => {
    expect(guard.inspect(text, RECOMMENDED_CONFIG)).toBeUndefined()
  })

  test('an invalid config is an error for the caller (who sends the request unchanged)', () => {
    const body = JSON.stringify(openaiChatBody({ turns: [{ prompt: 'go' }, { calls: [READ] }] }))
    expect(() => guard.inspect(body, { ...RECOMMENDED_CONFIG, thresholds: [1] })).toThrow(/thresholds/)
  })
})
