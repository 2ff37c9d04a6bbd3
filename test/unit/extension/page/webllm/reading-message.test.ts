// How the WebLLM hook reads a message the client posts.
import { describe, expect, test } from 'vitest'
import { chatRequestOf, modelOf } from '../../../../../extension/src/page/webllm/request.ts'
import { messageWithRequest } from '../../../../../extension/src/page/webllm/rewritten-message.ts'

describe('reading a message', () => {
  test("the model shown: the stream's selected one, else the request's, else the one loaded", () => {
    const request = { messages: [] }
    const model = (content: Record<string, unknown>) => modelOf(chatRequestOf({ kind: 'chatCompletionNonStreaming', uuid: 'u', content: { request, ...content } })!)
    expect(model({ selectedModelId: 'a', modelId: ['c'] })).toBe('a')
    expect(modelOf(chatRequestOf({ kind: 'chatCompletionNonStreaming', uuid: 'u', content: { request: { messages: [], model: 'b' }, modelId: ['c'] } })!)).toBe('b')
    expect(model({ modelId: ['c', 'd'] })).toBe('c')
    expect(model({ modelId: 'c' })).toBe('unknown-model')
    expect(model({})).toBe('unknown-model')
  })

  test("a rewrite inside a nested list keeps the page's values around it; a key named __proto__ stays a key", () => {
    const samples = new Float32Array([1])
    const first = {
      role: 'user',
      content: [
        { type: 'text', text: 'a' },
        { type: 'audio', data: samples },
      ],
    }
    const request = JSON.parse('{"messages":[],"__proto__":{"x":1}}') as Record<string, unknown>
    request.messages = [first, { role: 'user', content: 'b' }]
    const chat = chatRequestOf({ kind: 'chatCompletionNonStreaming', uuid: 'u', content: { request } })!
    const rewritten = JSON.parse(JSON.stringify(request))
    rewritten.messages[0].content.splice(1, 0, { type: 'text', text: 'inserted' })
    // biome-ignore lint/suspicious/noProto: JSON.parse made `__proto__` an own key; this writes that key
    rewritten.__proto__ = { x: 2 }
    const text = JSON.stringify(rewritten)
    const out = (messageWithRequest(chat, text) as { content: { request: Record<string, unknown> & { messages: { content: unknown[] }[] } } }).content.request
    expect(out.messages[1]).toBe((request.messages as unknown[])[1])
    expect(out.messages[0]).not.toBe(first)
    expect(out.messages[0]!.content[0]).toBe(first.content[0])
    expect(out.messages[0]!.content[1]).toEqual({ type: 'text', text: 'inserted' })
    expect(out.messages[0]!.content[2]).toBe(first.content[1])
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype)
    expect(Object.getOwnPropertyDescriptor(out, '__proto__')!.value).toEqual({ x: 2 })
    expect(first.content).toHaveLength(2)
  })
})
