// The WebLLM hook on a chat completion request with a due reminder.
import { describe, expect, test } from 'vitest'
import { checkPanelEvent } from '../../../../../extension/src/protocol/validate.ts'
import { GENTLE } from '../../../../fixtures/wire/reminders.ts'
import { MODEL, chatMessage, chatRequest, page, post } from './worker-page.ts'

describe('a chat completion request with a due reminder', () => {
  test.each([false, true])("stream %s: a new message, equal to the page's but for the user message after the tool messages", (stream) => {
    const p = page()
    const request = chatRequest(3)
    const message = chatMessage(request, stream)
    const before = structuredClone(message)
    const transfer: unknown[] = []
    const [sent, rest] = post(p, message, transfer) as [typeof message, unknown]
    expect(rest).toBe(transfer)
    expect(sent).not.toBe(message)
    expect(message).toEqual(before)
    const content = sent.content as Record<string, unknown>
    const pageContent = message.content as Record<string, unknown>
    expect({ ...sent, content: undefined }).toEqual({ ...message, content: undefined })
    expect({ ...content, request: undefined }).toEqual({ ...pageContent, request: undefined })
    expect(content.modelId).toBe(pageContent.modelId)
    const sentRequest = content.request as { messages: unknown[] }
    const pageMessages = request.messages as unknown[]
    expect(sentRequest.messages).toHaveLength(pageMessages.length + 1)
    expect(sentRequest.messages[8]).toEqual({ role: 'user', content: GENTLE })
    // Every other message is the page's own object, in its place.
    expect([...sentRequest.messages.slice(0, 8), ...sentRequest.messages.slice(9)]).toEqual(pageMessages)
    sentRequest.messages.forEach((m, i) => i !== 8 && expect(m).toBe(pageMessages[i < 8 ? i : i - 1]))
    expect({ ...sentRequest, messages: undefined }).toEqual({ ...request, messages: undefined })
  })

  test('events: the wire agent reached through webllm, its calls, the reminder, the request at the model; all valid', () => {
    const p = page()
    post(p, chatMessage(chatRequest(3), true))
    for (const event of p.events) expect(checkPanelEvent(event)).toMatchObject({ ok: true })
    expect(p.events.map((e) => e.type)).toEqual(['agent', 'call', 'call', 'call', 'reminder', 'request'])
    expect(p.events[0]).toEqual({ type: 'agent', at: expect.any(Number), agent: { id: 'wire:1', kind: 'wire', label: 'You are a test agent.', format: 'openai-chat', reach: 'webllm' } })
    expect(p.events[4]).toMatchObject({ type: 'reminder', agentId: 'wire:1', seq: 3, level: 'gentle', text: GENTLE, placement: 'messages[8]' })
    expect(p.events[5]).toMatchObject({ type: 'request', agentId: 'wire:1', url: `webllm:${MODEL}`, format: 'openai-chat', calls: 3, remindersInserted: 1, rewritten: true })
  })

  test('the next request carries the reminder at the same place, once, and reports only what is new', () => {
    const p = page()
    post(p, chatMessage(chatRequest(3)))
    const [sent] = post(p, chatMessage(chatRequest(4))) as [{ content: { request: { messages: unknown[] } } }]
    const messages = sent.content.request.messages
    expect(messages[8]).toEqual({ role: 'user', content: GENTLE })
    expect(messages.filter((m) => JSON.stringify(m).includes('You are repeating'))).toHaveLength(1)
    expect(p.events.slice(6).map((e) => e.type)).toEqual(['call', 'request'])
  })

  test("what JSON cannot carry stays the page's own: typed arrays, dates, fields set to undefined", () => {
    const p = page()
    const samples = new Float32Array([0.5, -0.25])
    const at = new Date(0)
    const request = chatRequest(3)
    const audio = { role: 'user', content: [{ type: 'input_audio', input_audio: { format: 'pcm_f32', data: samples, sample_rate: 16_000 } }] }
    const messages = [...(request.messages as unknown[])]
    messages.splice(2, 0, audio)
    const pageRequest = { ...request, messages, seed: undefined, metadata: { at } }
    const [sent] = post(p, chatMessage(pageRequest)) as [{ content: { request: Record<string, unknown> & { messages: unknown[] } } }]
    const out = sent.content.request
    expect(out.messages[9]).toEqual({ role: 'user', content: GENTLE })
    expect(out.messages[2]).toBe(audio)
    expect((out.messages[2] as typeof audio).content[0]!.input_audio.data).toBe(samples)
    expect(Object.hasOwn(out, 'seed')).toBe(true)
    expect(out.metadata).toBe(pageRequest.metadata)
  })
})
