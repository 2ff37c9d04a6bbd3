// AI SDK chats whose tools run on the page: the requests `DefaultChatTransport` really posts,
// guarded by the wire guard, and what a real server (`convertToModelMessages`, `streamText`) makes
// of the rewritten body.
import { convertToModelMessages, streamText, type UIMessage } from 'ai'
import { MockLanguageModelV3 } from 'ai/test'
import { describe, expect, test } from 'vitest'
import { RECOMMENDED_CONFIG } from '../../../../engine/index.ts'
import { createWireGuard } from '../../../../engine/wire/index.ts'
import { detectFormat, mayHoldToolCall } from '../../../../engine/wire/detect.ts'
import { aiSdkUi } from '../../../../engine/wire/formats/ai-sdk-ui.ts'
import { detailed, GENTLE } from '../../../fixtures/wire/reminders.ts'
import { clientToolChat, PROMPT, chatRequest } from './ai-sdk.ts'

const DETAILED = detailed('read_file', 5, '{"path":"a.ts"}')

const reminder = (id: string, text: string) => ({ id, role: 'user', parts: [{ type: 'text', text }] })

/** Each request through one guard, as the page sends it: the text sent and its events. */
async function guardedChat(calls: number) {
  const { turns, last } = await clientToolChat('chat_1', calls)
  const guard = createWireGuard()
  const bodies = [...turns.map((t) => t.body), last]
  return bodies.map((body) => {
    const inspection = guard.inspect(body, RECOMMENDED_CONFIG)
    return { page: body, sent: inspection?.body ?? body, events: inspection?.events ?? [] }
  })
}

describe('an AI SDK chat whose tool runs on the page', () => {
  test('the request that carries the 3rd result gets the gentle reminder after the assistant message, with an id from that call', async () => {
    const requests = await guardedChat(6)
    // Request n carries n results, all in one assistant message.
    const third = JSON.parse(requests[3]!.sent) as { messages: UIMessage[] }
    expect(third.messages).toHaveLength(3)
    expect(third.messages[2]).toEqual(reminder('repeat-tool-guard-call_3', GENTLE))
    expect(requests.slice(0, 3).every((r) => r.sent === r.page)).toBe(true)
  })

  test('later requests keep it where it was, byte for byte, and the 5th result adds the detailed one after it', async () => {
    const requests = await guardedChat(6)
    const gentle = JSON.stringify(reminder('repeat-tool-guard-call_3', GENTLE))
    const fifth = JSON.stringify(reminder('repeat-tool-guard-call_5', DETAILED))
    // Everything else is the page's own text: the reminders go in just before `messages` closes.
    const withReminders = (page: string, inserted: string[]) => page.replace(/\],"trigger"/, `,${inserted.join(',')}],"trigger"`)
    expect(requests[3]!.sent).toBe(withReminders(requests[3]!.page, [gentle]))
    expect(requests[4]!.sent).toBe(withReminders(requests[4]!.page, [gentle]))
    expect(requests[5]!.sent).toBe(withReminders(requests[5]!.page, [gentle, fifth]))
    expect(requests[6]!.sent).toBe(withReminders(requests[6]!.page, [gentle, fifth]))
  })

  test('each reminder is reported once, where it went', async () => {
    const events = (await guardedChat(6)).flatMap((r) => r.events)
    expect(events.filter((e) => e.type === 'agent')).toHaveLength(1)
    expect(events.filter((e) => e.type === 'call')).toHaveLength(6)
    const reminders = events.flatMap((e) => (e.type === 'reminder' ? [[e.level, e.count, e.placement, e.serverLoop]] : []))
    expect(reminders).toEqual([
      ['gentle', 3, 'messages[2]', undefined],
      ['detailed', 5, 'messages[3]', undefined],
    ])
  })

  test('a real server accepts the rewritten messages, and its model gets each reminder as a user message', async () => {
    const requests = await guardedChat(5)
    const { messages } = JSON.parse(requests[5]!.sent) as { messages: UIMessage[] }
    const model = new MockLanguageModelV3({
      doStream: async () => ({
        stream: new ReadableStream({
          start(controller) {
            controller.enqueue({ type: 'stream-start', warnings: [] })
            controller.enqueue({
              type: 'finish',
              finishReason: { unified: 'stop', raw: 'stop' },
              usage: { inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined }, outputTokens: { total: 1, text: 1, reasoning: undefined } },
            })
            controller.close()
          },
        }),
      }),
    })
    await streamText({ model, messages: await convertToModelMessages(messages) }).consumeStream()
    const prompt = model.doStreamCalls[0]!.prompt
    const userTexts = prompt.filter((m) => m.role === 'user').map((m) => (m.content as { text: string }[]).map((part) => part.text).join(''))
    expect(userTexts).toEqual(['make the tests pass', GENTLE, DETAILED])
    // The five results reached the model before the reminders.
    expect(prompt.filter((m) => m.role === 'tool')).toHaveLength(5)
  })

  test('two chats that start with the same prompt are two agents; one chat is one agent across its requests', async () => {
    const guard = createWireGuard()
    const a = await clientToolChat('chat_a', 3)
    const b = await clientToolChat('chat_b', 3)
    const events = [...a.turns.map((t) => t.body), a.last, ...b.turns.map((t) => t.body), b.last].flatMap((body) => guard.inspect(body, RECOMMENDED_CONFIG)?.events ?? [])
    const agents = events.filter((e) => e.type === 'agent')
    expect(agents.map((e) => [e.format, e.label])).toEqual([
      ['ai-sdk-ui', 'make the tests pass'],
      ['ai-sdk-ui', 'make the tests pass'],
    ])
    expect(events.filter((e) => e.type === 'reminder').map((e) => e.agentId)).toEqual(agents.map((e) => e.agentId))
  })
})

describe('reading UI message requests', () => {
  test('the cheap test lets them through and their shape says their format', async () => {
    const { last } = await clientToolChat('chat_1', 1)
    expect(mayHoldToolCall(last)).toBe(true)
    expect(detectFormat(JSON.parse(last))?.format).toBe('ai-sdk-ui')
    expect(mayHoldToolCall(await chatRequest('chat_1', [PROMPT]))).toBe(false)
  })

  const part = (id: string, state: string, extra: object = {}) => ({ type: 'tool-read_file', toolCallId: id, state, input: { path: 'a.ts' }, output: 'x', ...extra })

  test('steps are split at step-start; errors, dynamic tools and refused inputs are calls; denied and provider-run ones are not', () => {
    const conversation = aiSdkUi.walk({
      id: 'c',
      messages: [
        { id: 's', role: 'system', parts: [{ type: 'text', text: 'rules' }] },
        PROMPT,
        {
          id: 'a',
          role: 'assistant',
          parts: [
            { type: 'step-start' },
            { type: 'text', text: 'looking' },
            part('c1', 'output-available'),
            part('c2', 'output-error', { errorText: 'no such file', output: undefined }),
            { type: 'step-start' },
            { type: 'dynamic-tool', toolName: 'grep', toolCallId: 'c3', state: 'output-available', input: 'x', output: [] },
            { type: 'tool-read_file', toolCallId: 'c4', state: 'output-error', rawInput: '{bad', errorText: 'invalid input' },
            part('c5', 'output-denied'),
            part('c6', 'output-available', { providerExecuted: true }),
            { type: 'step-start' },
            part('c7', 'output-denied'),
          ],
        },
      ],
    })
    expect(conversation.id).toBe('c')
    expect(conversation.system).toEqual([{ type: 'text', text: 'rules' }])
    const steps = conversation.items.flatMap((item) =>
      item.kind === 'step' ? [{ calls: item.calls.map((c) => [c.name, c.arguments, c.isError, c.content]), at: item.at.index, anchor: item.anchor }] : [],
    )
    expect(steps).toEqual([
      {
        calls: [
          ['read_file', { path: 'a.ts' }, false, 'x'],
          ['read_file', { path: 'a.ts' }, true, 'no such file'],
        ],
        at: 3,
        anchor: 'c2',
      },
      {
        calls: [
          ['grep', 'x', false, []],
          ['read_file', '{bad', true, 'invalid input'],
        ],
        at: 3,
        anchor: 'c4',
      },
    ])
  })

  test('a call still waiting for its output, or a preliminary one, ends the walk', () => {
    for (const waiting of [part('c2', 'input-available', { output: undefined }), part('c2', 'output-available', { preliminary: true }), part('c2', 'approval-requested')]) {
      const conversation = aiSdkUi.walk({
        messages: [
          PROMPT,
          { id: 'a', role: 'assistant', parts: [{ type: 'step-start' }, part('c1', 'output-available'), { type: 'step-start' }, waiting] },
          { id: 'u2', role: 'user', parts: [{ type: 'text', text: 'later' }] },
        ],
      })
      expect(conversation.items.map((i) => i.kind)).toEqual(['prompt', 'step'])
    }
  })

  test("a history that already holds the guard's reminder is the page's own", () => {
    const conversation = aiSdkUi.walk({ messages: [PROMPT, { id: 'a', role: 'assistant', parts: [part('c1', 'output-available')] }, reminder('r', GENTLE)] })
    expect(conversation.carriesReminders).toBe(true)
    expect(conversation.items[1]).toMatchObject({ kind: 'step', guarded: true })
    expect(conversation.id).toBeUndefined()
  })

  test('a reminder item names the call it follows, and its rank after the first', () => {
    expect(aiSdkUi.reminderItem('r', { anchor: 'call_3', index: 0 })).toEqual(reminder('repeat-tool-guard-call_3', 'r'))
    expect(aiSdkUi.reminderItem('r', { anchor: 'call_3', index: 1 })).toEqual(reminder('repeat-tool-guard-call_3-1', 'r'))
    expect(aiSdkUi.reminderItem('r')).toEqual(reminder('repeat-tool-guard-', 'r'))
  })
})
