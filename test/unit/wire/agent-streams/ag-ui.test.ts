// AG-UI runs: a server's tool loop read from the events `@ag-ui/encoder` writes, and frontend
// tools guarded in the `RunAgentInput` bodies `@ag-ui/client`'s `HttpAgent` posts.
import { describe, expect, test } from 'vitest'
import { RECOMMENDED_CONFIG } from '../../../../engine/index.ts'
import { detectFormat, mayHoldToolCall } from '../../../../engine/wire/detect.ts'
import { agUi } from '../../../../engine/wire/formats/ag-ui.ts'
import { createWireGuard, type WireEvent } from '../../../../engine/wire/index.ts'
import { detailed, GENTLE } from '../../../fixtures/wire/reminders.ts'
import { agentAnswering, frontendToolThread, PROMPT, runStream } from './ag-ui.ts'
import { readInPieces } from './split.ts'

const ofType = <T extends WireEvent['type']>(events: readonly WireEvent[], type: T) => events.filter((e): e is Extract<WireEvent, { type: T }> => e.type === type)

const DETAILED = detailed('read_file', 5, '{"path":"a.ts"}')

/** The first run's body, as the client posts it before any call. */
async function firstBody(): Promise<string> {
  const { agent, bodies } = agentAnswering([runStream('run_1', 1, 0, true)])
  await agent.runAgent({ runId: 'run_1' })
  return bodies[0]!
}

describe("a server's tool loop, read from its AG-UI events", () => {
  test.each([11, 12])('6 identical calls: 6 call events, would-remind at 3 and 5 (splits seeded %i)', async (seed) => {
    const guard = createWireGuard()
    const reading = guard.openStream(await firstBody(), 'ag-ui', RECOMMENDED_CONFIG)!
    const events = readInPieces(reading, runStream('run_1', 1, 6, true), seed)
    expect(ofType(events, 'agent').map((e) => [e.format, e.label])).toEqual([['ag-ui', 'make the tests pass']])
    expect(ofType(events, 'call').map((e) => [e.tool, e.canonicalArguments])).toEqual(Array.from({ length: 6 }, () => ['read_file', '{"path":"a.ts"}']))
    expect(ofType(events, 'reminder').map((e) => [e.level, e.count, e.message.content[0].text, e.placement, e.serverLoop])).toEqual([
      ['gentle', 3, GENTLE, '', true],
      ['detailed', 5, DETAILED, '', true],
    ])
  })

  test("the next run's body, which the client built from those events, counts nothing twice and inserts nothing", async () => {
    const guard = createWireGuard()
    const stream = runStream('run_1', 1, 6, true)
    const { agent, bodies } = agentAnswering([stream, runStream('run_2', 7, 0, true)])
    await agent.runAgent({ runId: 'run_1' })
    readInPieces(guard.openStream(bodies[0]!, 'ag-ui', RECOMMENDED_CONFIG)!, stream, 4)
    agent.addMessage({ id: 'user_2', role: 'user', content: 'now run them' })
    await agent.runAgent({ runId: 'run_2' })
    const inspection = guard.inspect(bodies[1]!, RECOMMENDED_CONFIG)!
    expect(inspection.body).toBeUndefined()
    expect(inspection.events.map((e) => e.type)).toEqual(['chain-reset', 'request'])
    expect(ofType(inspection.events, 'request')[0]).toMatchObject({ format: 'ag-ui', calls: 6, remindersInserted: 0 })
  })

  test('a run cut in the middle of an event ends there', async () => {
    const guard = createWireGuard()
    const stream = runStream('run_1', 1, 6, true)
    const reading = guard.openStream(await firstBody(), 'ag-ui', RECOMMENDED_CONFIG)!
    const cut = stream.indexOf('"toolCallId":"call_3","content"') + 5
    expect(ofType(readInPieces(reading, stream.slice(0, cut), 9, { cut: true }), 'call')).toHaveLength(2)
    expect(reading.push(stream.slice(cut))).toEqual([])
  })
})

describe('an AG-UI thread whose tool runs on the page', () => {
  async function guardedThread(calls: number) {
    const guard = createWireGuard()
    const { turns, last } = await frontendToolThread(calls)
    const sent = [...turns.map((t) => t.body), last].map((body, n) => {
      const inspection = guard.inspect(body, RECOMMENDED_CONFIG)
      // The events of each run's stream: its call has no result there, so they count nothing.
      const streamed = n < turns.length ? readInPieces(guard.openStream(body, 'ag-ui', RECOMMENDED_CONFIG)!, turns[n]!.stream, n) : []
      return { page: body, sent: inspection?.body ?? body, events: [...(inspection?.events ?? []), ...streamed] }
    })
    return sent
  }

  const reminder = (id: string, content: string) => JSON.stringify({ id, role: 'user', content })
  const insertedAfter = (page: string, toolMessage: string, inserted: string) => page.replace(`${toolMessage}`, `${toolMessage},${inserted}`)
  const result = (n: number) => `{"id":"result_${n}","role":"tool","content":"export const a = 1","toolCallId":"call_${n}"}`

  test('the runs that carry the 3rd and 5th results get the reminders after them, sticky and byte for byte', async () => {
    const runs = await guardedThread(6)
    const gentle = reminder('repeat-tool-guard-call_3', GENTLE)
    const fifth = reminder('repeat-tool-guard-call_5', DETAILED)
    expect(runs.slice(0, 3).every((r) => r.sent === r.page)).toBe(true)
    expect(runs[3]!.sent).toBe(insertedAfter(runs[3]!.page, result(3), gentle))
    expect(runs[4]!.sent).toBe(insertedAfter(runs[4]!.page, result(3), gentle))
    expect(runs[5]!.sent).toBe(insertedAfter(insertedAfter(runs[5]!.page, result(3), gentle), result(5), fifth))
    expect(runs[6]!.sent).toBe(insertedAfter(insertedAfter(runs[6]!.page, result(3), gentle), result(5), fifth))
    const events = runs.flatMap((r) => r.events)
    expect(ofType(events, 'call')).toHaveLength(6)
    expect(ofType(events, 'agent')).toHaveLength(1)
    expect(ofType(events, 'reminder').map((e) => [e.level, e.placement])).toEqual([
      ['gentle', 'messages[7]'],
      ['detailed', 'messages[12]'],
    ])
  })

  test('two threads that start with the same prompt are two agents', async () => {
    const guard = createWireGuard()
    const a = await frontendToolThread(1, 'thread_a')
    const b = await frontendToolThread(1, 'thread_b')
    const agents = [a.last, b.last].flatMap((body) => ofType(guard.inspect(body, RECOMMENDED_CONFIG)!.events, 'agent'))
    expect(new Set(agents.map((e) => e.agentId)).size).toBe(2)
  })

  test('its bodies pass the cheap test and are told from OpenAI Chat, whose messages they resemble', async () => {
    const { last } = await frontendToolThread(1)
    expect(mayHoldToolCall(last)).toBe(true)
    expect(detectFormat(JSON.parse(last))?.format).toBe('ag-ui')
    expect(detectFormat({ threadId: 't', runId: 'r', messages: [PROMPT] })).toBeUndefined()
  })

  test('a tool message with an error is an error result; a call with no readable name is none', () => {
    const call = (id: string, name: unknown) => ({ id, type: 'function', function: { name, arguments: '{}' } })
    const conversation = agUi.walk({
      threadId: 't',
      runId: 'r',
      messages: [
        { id: 's', role: 'system', content: 'rules' },
        PROMPT,
        { id: 'a', role: 'assistant', toolCalls: [call('c1', 'grep'), call('c2', 42)] },
        { id: 'r1', role: 'tool', toolCallId: 'c1', content: [{ type: 'text', text: 'boom' }], error: 'failed' },
      ],
    })
    expect(conversation.system).toBe('rules')
    expect(conversation.id).toBe('t')
    expect(conversation.items[1]).toMatchObject({ kind: 'step', calls: [{ name: 'grep', isError: true, content: 'boom' }], at: { path: ['messages'], index: 4 }, anchor: 'c1' })
    expect(agUi.reminderItem('r')).toEqual({ id: 'repeat-tool-guard-', role: 'user', content: 'r' })
  })
})
