// WebLLM's Web Worker engine in Node: a separate realm stands for the page (so patching its
// Function.prototype.toString leaves the test runner alone), with a fake Worker class whose
// postMessage records what reached it. The messages are the ones `WebWorkerMLCEngine` posts.
import vm from 'node:vm'
import { describe, expect, test } from 'vitest'
import { RECOMMENDED_CONFIG, type GuardConfig } from '../../../engine/index.ts'
import { createNativeLook } from '../../../extension/src/page/native-look.ts'
import { installWebllmInterceptor } from '../../../extension/src/page/webllm/install.ts'
import { chatRequestOf, modelOf } from '../../../extension/src/page/webllm/request.ts'
import { messageWithRequest } from '../../../extension/src/page/webllm/rewritten-message.ts'
import { createWireInspector, type WireInspector } from '../../../extension/src/page/wire/inspector.ts'
import type { InspectorEvent } from '../../../extension/src/protocol/events.ts'
import { checkInspectorEvent } from '../../../extension/src/protocol/validate.ts'
import type { ZeroCodeMode } from '../../../extension/src/protocol/zero-code-mode.ts'
import { openaiChatBody, repeat, type Script } from '../../fixtures/wire/conversations.ts'
import { GENTLE } from '../../fixtures/wire/reminders.ts'

const READ = { name: 'read_file', args: { path: 'a.txt' } }
const loop = (steps: number): Script => ({ system: 'You are a test agent.', turns: [{ prompt: 'go' }, ...repeat(READ, steps)] })
const MODEL = 'Hermes-3-Llama-3.1-8B-q4f16_1-MLC'

/** A chat completion request message, as the client posts it for `chat.completions.create(request)`. */
function chatMessage(request: object, stream = false): Record<string, unknown> {
  return stream
    ? { kind: 'chatCompletionStreamInit', uuid: 'u-1', content: { request, selectedModelId: MODEL, streamId: 's-1', modelId: [MODEL], chatOpts: undefined } }
    : { kind: 'chatCompletionNonStreaming', uuid: 'u-1', content: { request, modelId: [MODEL], chatOpts: [{ temperature: 0 }] } }
}

const chatRequest = (steps: number): Record<string, unknown> => ({ ...openaiChatBody(loop(steps)), model: MODEL, stream: false })

interface Page {
  readonly target: typeof globalThis
  readonly Worker: new (url: string) => object
  readonly events: InspectorEvent[]
  /** What reached the native postMessage, call by call. */
  readonly posted: { self: unknown; args: unknown[] }[]
  /** How often the analysis was asked for (the on-demand half started). */
  asked: number
  config: () => GuardConfig
  mode: () => ZeroCodeMode
}

/** A page realm with a Worker class whose native postMessage records its calls. */
function page(): Page {
  const context = vm.createContext({})
  const target = vm.runInContext('globalThis', context) as typeof globalThis
  const Worker = vm.runInContext(
    `globalThis.Worker = class Worker {
      constructor(url) { this.url = url }
      postMessage(message, transfer) {
        if (!(this instanceof Worker)) throw new TypeError('Illegal invocation')
        posted.push({ self: this, args: [...arguments] })
      }
    }`,
    context,
  ) as Page['Worker']
  const state: Page = {
    target,
    Worker,
    events: [],
    posted: [],
    asked: 0,
    config: () => RECOMMENDED_CONFIG,
    mode: () => 'guard',
  }
  ;(target as unknown as { posted: unknown }).posted = state.posted
  let inspector: WireInspector | undefined
  installWebllmInterceptor({
    target,
    mode: () => state.mode(),
    showAsNative: createNativeLook(target),
    inspector: () => {
      state.asked++
      return (inspector ??= createWireInspector({ config: () => state.config(), emit: (event) => state.events.push(event), hookSaw: () => false, now: Date.now }))
    },
  })
  return state
}

/** Posts `args` to a new worker of the page, and returns what reached the native postMessage. */
function post(p: Page, ...args: unknown[]): unknown[] {
  const worker = new p.Worker('/webllm-worker.js')
  ;(worker as { postMessage(...args: unknown[]): void }).postMessage(...args)
  const last = p.posted.at(-1)!
  expect(last.self).toBe(worker)
  return last.args
}

describe('a hook that still looks native', () => {
  test('name, length, toString and the property descriptor are the original\'s', () => {
    const context = vm.createContext({})
    const target = vm.runInContext('globalThis', context) as typeof globalThis
    const original = vm.runInContext('globalThis.Worker = class Worker { postMessage(message, options) {} }; Worker.prototype.postMessage', context) as () => void
    const before = Object.getOwnPropertyDescriptor(target.Worker.prototype, 'postMessage')
    expect(installWebllmInterceptor({ target, mode: () => 'guard', inspector: () => expect.fail('no analysis'), showAsNative: createNativeLook(target) })).toBe(true)
    const hooked = target.Worker.prototype.postMessage
    const toString = target.Function.prototype.toString
    expect(hooked).not.toBe(original)
    expect(hooked.name).toBe('postMessage')
    expect(hooked.length).toBe(original.length)
    expect(toString.call(hooked)).toBe(toString.call(original))
    expect(vm.runInContext('String(Worker.prototype.postMessage)', context)).toBe(toString.call(original))
    expect(Object.getOwnPropertyDescriptor(target.Worker.prototype, 'postMessage')).toEqual({ ...before, value: hooked })
  })

  test('a realm without workers, or with a postMessage that is no method, is left alone', () => {
    const bare = vm.runInContext('globalThis', vm.createContext({})) as typeof globalThis
    expect(installWebllmInterceptor({ target: bare, mode: () => 'guard', inspector: () => expect.fail('no analysis'), showAsNative: createNativeLook(bare) })).toBe(false)
    expect('Worker' in bare).toBe(false)
    const odd = vm.runInContext('globalThis.Worker = class Worker { get postMessage() { return 1 } }; globalThis', vm.createContext({})) as typeof globalThis
    expect(installWebllmInterceptor({ target: odd, mode: () => 'guard', inspector: () => expect.fail('no analysis'), showAsNative: createNativeLook(odd) })).toBe(false)
    expect(Object.getOwnPropertyDescriptor(odd.Worker.prototype, 'postMessage')!.get).toBeTypeOf('function')
  })
})

describe('what passes untouched: the very same arguments, the analysis never asked for', () => {
  const request = chatRequest(3)
  const transfer = [new ArrayBuffer(8)]
  const withGetter = Object.defineProperty({ uuid: 'u', content: { request } }, 'kind', { get: () => expect.fail('a getter of the page ran'), enumerable: true })
  const cases: [string, unknown[]][] = [
    ['a string', ['hello']],
    ['a number with a transfer list', [1, transfer]],
    ['null', [null]],
    ['nothing at all', []],
    ['an array', [[request]]],
    ['another app\'s message', [{ type: 'render', payload: request }]],
    ['WebLLM\'s reload', [{ kind: 'reload', uuid: 'u', content: { modelId: [MODEL], chatOpts: undefined } }]],
    ['WebLLM\'s next stream chunk', [{ kind: 'completionStreamNextChunk', uuid: 'u', content: { streamId: 's' } }]],
    ['a (legacy) completion request', [{ kind: 'completionNonStreaming', uuid: 'u', content: { request: { prompt: 'hi' }, modelId: [MODEL] } }]],
    ['a chat kind without uuid', [{ kind: 'chatCompletionNonStreaming', content: { request } }]],
    ['a chat kind whose content is no object', [{ kind: 'chatCompletionNonStreaming', uuid: 'u', content: 'x' }]],
    ['a chat kind without messages', [{ kind: 'chatCompletionNonStreaming', uuid: 'u', content: { request: { model: MODEL } } }]],
    ['a kind behind a getter (never called)', [withGetter]],
    ['a kind inherited, not own', [Object.assign(Object.create({ kind: 'chatCompletionNonStreaming' }), { uuid: 'u', content: { request } })]],
    ['a message with options', [{ any: 1 }, { transfer }]],
  ]
  test.each(cases)('%s', (_, args) => {
    const p = page()
    const sent = post(p, ...args)
    expect(sent).toHaveLength(args.length)
    sent.forEach((arg, i) => expect(arg).toBe(args[i]))
    expect(p.asked).toBe(0)
    expect(p.events).toEqual([])
  })

  test('a message whose reading throws meets the native postMessage as it came', () => {
    const p = page()
    const hostile = new Proxy({}, { getOwnPropertyDescriptor: () => { throw new Error('trap') } })
    expect(post(p, hostile)[0]).toBe(hostile)
    expect(p.asked).toBe(0)
  })

  test('a chat completion request with no tool call yet is analysed and goes out as it came', () => {
    const p = page()
    const message = chatMessage({ model: MODEL, messages: [{ role: 'user', content: 'hi' }] })
    expect(post(p, message)[0]).toBe(message)
    expect(p.asked).toBe(1)
    expect(p.events).toEqual([])
  })

  test('the native postMessage\'s own errors and `this` are the page\'s', () => {
    const p = page()
    const postMessage = p.target.Worker.prototype.postMessage
    expect(() => Reflect.apply(postMessage, {}, ['hello'])).toThrow(new TypeError('Illegal invocation'))
    expect(() => Reflect.apply(postMessage, {}, [chatMessage(chatRequest(3))])).toThrow(new TypeError('Illegal invocation'))
    expect(p.posted).toEqual([])
  })

  test('an error the native raised with text arguments has the stack it would have without the hook', () => {
    const p = page()
    const postMessage = p.target.Worker.prototype.postMessage
    let stack = ''
    function pagePostsToAForeignReceiver(): void {
      Reflect.apply(postMessage, {}, ['hello'])
    }
    try {
      pagePostsToAForeignReceiver()
    } catch (error) {
      stack = (error as Error).stack ?? ''
    }
    const frames = stack.split('\n').slice(1)
    expect(frames[0]).toMatch(/^\s+at pagePostsToAForeignReceiver \(/)
    expect(frames.join('\n')).not.toContain('/extension/src/page/')
  })
})

describe('a chat completion request with a due reminder', () => {
  test.each([false, true])('stream %s: a new message, equal to the page\'s but for the user message after the tool messages', (stream) => {
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
    for (const event of p.events) expect(checkInspectorEvent(event)).toMatchObject({ ok: true })
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

  test('what JSON cannot carry stays the page\'s own: typed arrays, dates, fields set to undefined', () => {
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

describe('the origin\'s setting', () => {
  test('observe: the very same message goes out; the events say where the reminder would go', () => {
    const p = page()
    p.mode = () => 'observe'
    const message = chatMessage(chatRequest(3))
    expect(post(p, message)[0]).toBe(message)
    expect(p.events[4]).toMatchObject({ type: 'reminder', placement: 'messages[8]', withheld: 'observe' })
    expect(p.events[5]).toMatchObject({ type: 'request', remindersInserted: 1, rewritten: false, withheld: 'observe' })
  })

  test('off: not looked at, nothing started; back to guard, the next request is guarded', () => {
    const p = page()
    p.mode = () => 'off'
    const message = chatMessage(chatRequest(3))
    expect(post(p, message)[0]).toBe(message)
    expect(p.asked).toBe(0)
    expect(p.events).toEqual([])
    p.mode = () => 'guard'
    expect(post(p, chatMessage(chatRequest(3)))[0]).not.toBe(message)
    expect(p.events.at(-1)).toMatchObject({ type: 'request', rewritten: true })
  })
})

describe('a failure inside the hook posts the page\'s message and reports a fault', () => {
  const faultOnly = (p: Page, message: string) =>
    expect(p.events).toEqual([{ type: 'fault', at: expect.any(Number), message: `webllm interceptor: the request went out unchanged: ${message}` }])

  test('a setting that cannot be read', () => {
    const p = page()
    p.mode = () => {
      throw new Error('no setting')
    }
    const message = chatMessage(chatRequest(3))
    expect(post(p, message)[0]).toBe(message)
    faultOnly(p, 'no setting')
  })

  test('a config that cannot be read', () => {
    const p = page()
    p.config = () => {
      throw new Error('no config')
    }
    const message = chatMessage(chatRequest(3))
    expect(post(p, message)[0]).toBe(message)
    faultOnly(p, 'no config')
  })

  test('a request JSON cannot write (a BigInt)', () => {
    const p = page()
    const message = chatMessage({ ...chatRequest(3), seed: 1n })
    expect(post(p, message)[0]).toBe(message)
    expect(p.events).toMatchObject([{ type: 'fault', message: expect.stringContaining('BigInt') }])
  })

  test('an analysis that cannot even start', () => {
    const context = vm.createContext({ posted: [] as unknown[] })
    const target = vm.runInContext('globalThis.Worker = class Worker { postMessage(m) { posted.push(m) } }; globalThis', context) as typeof globalThis
    installWebllmInterceptor({ target, mode: () => 'guard', showAsNative: createNativeLook(target), inspector: () => { throw new Error('no half') } })
    const message = chatMessage(chatRequest(3))
    new target.Worker('/w.js').postMessage(message)
    expect((target as unknown as { posted: unknown[] }).posted).toEqual([message])
    expect((target as unknown as { posted: unknown[] }).posted[0]).toBe(message)
  })
})

describe('reading a message', () => {
  test('the model shown: the stream\'s selected one, else the request\'s, else the one loaded', () => {
    const request = { messages: [] }
    const model = (content: Record<string, unknown>) => modelOf(chatRequestOf({ kind: 'chatCompletionNonStreaming', uuid: 'u', content: { request, ...content } })!)
    expect(model({ selectedModelId: 'a', modelId: ['c'] })).toBe('a')
    expect(modelOf(chatRequestOf({ kind: 'chatCompletionNonStreaming', uuid: 'u', content: { request: { messages: [], model: 'b' }, modelId: ['c'] } })!)).toBe('b')
    expect(model({ modelId: ['c', 'd'] })).toBe('c')
    expect(model({ modelId: 'c' })).toBe('unknown-model')
    expect(model({})).toBe('unknown-model')
  })

  test('a rewrite inside a nested list keeps the page\'s values around it; a key named __proto__ stays a key', () => {
    const samples = new Float32Array([1])
    const first = { role: 'user', content: [{ type: 'text', text: 'a' }, { type: 'audio', data: samples }] }
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
