// The fetch interceptor in Node: a separate realm stands for the page (so patching its
// Function.prototype.toString leaves the test runner alone), with Node's own fetch as the native one.
import { createServer, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'
import vm from 'node:vm'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { RECOMMENDED_CONFIG, resolveConfig, type GuardConfig } from '../../../engine/index.ts'
import { installFetchInterceptor } from './fetch-interceptor.ts'
import type { InspectorEvent } from '../../../extension/src/protocol/events.ts'
import { checkInspectorEvent } from '../../../extension/src/protocol/validate.ts'
import type { ZeroCodeMode } from '../../../extension/src/protocol/zero-code-mode.ts'
import { anthropicBody, openaiChatBody, repeat, type Script } from '../../fixtures/wire/conversations.ts'
import { GENTLE } from '../../fixtures/wire/reminders.ts'

const READ = { name: 'read_file', args: { path: 'a.txt' } }
const LOOP3: Script = { system: 'You are a test agent.', turns: [{ prompt: 'go' }, ...repeat(READ, 3)] }
const LLM_BODY = JSON.stringify(openaiChatBody(LOOP3))

interface Page {
  readonly target: typeof globalThis
  readonly events: InspectorEvent[]
  /** What reached the native fetch, call by call. */
  readonly calls: { self: unknown; args: unknown[] }[]
  config: GuardConfig | (() => never)
  hookSaw: boolean
  mode: ZeroCodeMode
}

/** A page realm whose native fetch records its calls and answers 200. */
function page(nativeFetch?: typeof fetch, location?: string): Page {
  const calls: Page['calls'] = []
  const recorder = function fetch(this: unknown, ...args: unknown[]) {
    calls.push({ self: this, args })
    return Promise.resolve(new Response('ok'))
  }
  Object.defineProperty(recorder, 'length', { value: 1 })
  const context = vm.createContext({ fetch: nativeFetch ?? recorder, Request, Headers, Response, location: location ? { href: location } : undefined })
  const target = vm.runInContext('globalThis', context) as typeof globalThis
  const state: Page = {
    target,
    events: [],
    calls,
    config: RECOMMENDED_CONFIG,
    hookSaw: false,
    mode: 'guard',
  }
  installFetchInterceptor({
    target,
    config: () => (typeof state.config === 'function' ? state.config() : state.config),
    emit: (event) => state.events.push(event),
    hookSaw: () => state.hookSaw,
    mode: () => state.mode,
  })
  return state
}

describe('a Proxy that still looks native', () => {
  test('name, length, toString and the property itself are the native fetch\'s', () => {
    // The native fetch belongs to the page's realm, as in a browser.
    const context = vm.createContext({ Request, Headers })
    const target = vm.runInContext('globalThis', context) as typeof globalThis
    const original = vm.runInContext('globalThis.fetch = function fetch(input, init) { return Promise.resolve(input) }; fetch', context) as typeof fetch
    installFetchInterceptor({ target, config: () => RECOMMENDED_CONFIG, emit: () => {}, hookSaw: () => false, mode: () => 'guard' })
    const toString = target.Function.prototype.toString
    expect(target.fetch).not.toBe(original)
    expect(target.fetch.name).toBe('fetch')
    expect(target.fetch.length).toBe(original.length)
    expect(toString.call(target.fetch)).toBe(toString.call(original))
    expect(vm.runInContext('String(fetch)', context)).toBe(toString.call(original))
    expect(vm.runInContext('fetch.toString()', context)).toBe(toString.call(original))
    expect(toString.call(toString)).toBe('function toString() { [native code] }')
    expect(Object.getOwnPropertyDescriptor(target, 'fetch')).toMatchObject({ writable: true, enumerable: true, configurable: true })
    expect(() => toString.call({})).toThrow(/requires that 'this' be a Function/)
  })

  test('a realm without fetch is left alone; an accessor fetch is replaced by assignment', () => {
    const bare = vm.runInContext('globalThis', vm.createContext({})) as typeof globalThis
    const nothing = installFetchInterceptor({ target: bare, config: () => RECOMMENDED_CONFIG, emit: () => {}, hookSaw: () => false, mode: () => 'guard' })
    expect('fetch' in bare).toBe(false)
    expect(nothing.snapshot()).toEqual([])
    const target = vm.runInContext('globalThis', vm.createContext({ Request, Headers })) as typeof globalThis
    let current: unknown = () => Promise.resolve(new Response('x'))
    Object.defineProperty(target, 'fetch', { get: () => current, set: (v) => (current = v), configurable: true })
    installFetchInterceptor({ target, config: () => RECOMMENDED_CONFIG, emit: () => {}, hookSaw: () => false, mode: () => 'guard' })
    expect(current).toBe(target.fetch)
    expect(target.fetch.name).toBe('current')
  })
})

describe('installed at document_start, in every frame', () => {
  test('the interfaces a response body is read with are taken when installing, before any page script; those a request is read with by the first call', async () => {
    const touched: string[] = []
    const globals: Record<string, unknown> = { fetch: () => Promise.resolve(new Response('ok')) }
    const interfaces = { Request, Headers, Response, URL, ReadableStream, ReadableStreamDefaultReader, ReadableByteStreamController, ReadableStreamBYOBRequest, TextDecoder }
    for (const [name, value] of Object.entries(interfaces))
      Object.defineProperty(globals, name, { get: () => (touched.push(name), value), enumerable: true, configurable: true })
    const target = vm.runInContext('globalThis', vm.createContext(globals)) as typeof globalThis
    installFetchInterceptor({ target, config: () => RECOMMENDED_CONFIG, emit: () => undefined, hookSaw: () => false, mode: () => 'guard' })
    const body = ['Headers', 'Response', 'ReadableStream', 'ReadableStreamDefaultReader', 'ReadableByteStreamController', 'ReadableStreamBYOBRequest', 'TextDecoder']
    expect(new Set(touched)).toEqual(new Set(body))
    touched.length = 0
    await target.fetch('https://example.test/', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"messages":[]}' })
    expect(new Set(touched)).toEqual(new Set(['Request', 'Headers']))
  })
})

describe('what passes untouched: the very same arguments, no event', () => {
  const cases: [string, unknown[]][] = [
    ['a GET', ['/api']],
    ['a GET with init', ['/api', { headers: { a: 'b' } }]],
    ['FormData', ['/up', { method: 'POST', body: new FormData() }]],
    ['a Blob', ['/up', { method: 'POST', body: new Blob([LLM_BODY]) }]],
    ['URLSearchParams', ['/up', { method: 'POST', body: new URLSearchParams('a=1') }]],
    ['bytes', ['/up', { method: 'POST', body: new TextEncoder().encode(LLM_BODY) }]],
    ['a stream', ['/up', { method: 'POST', body: new ReadableStream(), duplex: 'half' }]],
    ['a non-JSON string', ['/up', { method: 'POST', body: 'hello' }]],
    ['a JSON PUT', ['/up', { method: 'PUT', body: LLM_BODY }]],
    ['a JSON POST sent as text/plain', ['/up', { method: 'POST', body: LLM_BODY, headers: [['Content-Type', 'text/plain']] }]],
    ['a JSON POST without a tool call', ['/v1/chat/completions', { method: 'POST', body: '{"messages":[{"role":"user","content":"hi"}]}' }]],
    ['an analytics beacon', ['/collect', { method: 'POST', body: '{"event":"click"}', headers: { 'content-type': 'application/json' } }]],
    ['a Request plus init', [new Request('http://x/v1', { method: 'POST', body: LLM_BODY }), { headers: {} }]],
    ['a Request with a form body', [new Request('http://x/up', { method: 'POST', body: new FormData() })]],
    ['a GET Request', [new Request('http://x/')]],
  ]
  test.each(cases)('%s', async (_, args) => {
    const p = page()
    await p.target.fetch(...(args as Parameters<typeof fetch>))
    expect(p.calls).toHaveLength(1)
    expect(p.calls[0]!.args).toHaveLength(args.length)
    p.calls[0]!.args.forEach((arg, i) => expect(arg).toBe(args[i]))
    expect(p.events).toEqual([])
  })

  test('this is forwarded as the page gave it', async () => {
    const p = page()
    const self = { any: 'receiver' }
    await Reflect.apply(p.target.fetch, self, ['/x'])
    expect(p.calls[0]!.self).toBe(self)
  })
})

describe('an LLM request with a due reminder', () => {
  test('(url, init): only the body changes; headers, signal and every other field are the page\'s own objects', async () => {
    const p = page(undefined, 'https://app.example/chat')
    const signal = new AbortController().signal
    const headers = new Headers({ 'content-type': 'application/json', authorization: 'Bearer k' })
    const init = { method: 'post', headers, signal, credentials: 'include', keepalive: false, mystery: 1, body: LLM_BODY } as RequestInit
    await p.target.fetch('/v1/chat/completions', init)
    const [url, sent, ...rest] = p.calls[0]!.args as [string, RequestInit]
    expect(url).toBe('/v1/chat/completions')
    expect(rest).toEqual([])
    expect(sent).not.toBe(init)
    expect({ ...sent, body: undefined }).toEqual({ ...init, body: undefined })
    expect(sent.headers).toBe(headers)
    expect(sent.signal).toBe(signal)
    expect(JSON.parse(sent.body as string).messages[8]).toEqual({ role: 'user', content: GENTLE })
    expect(init.body).toBe(LLM_BODY)
  })

  test('events: the wire agent, its calls, the reminder with its place, the request; all valid for the pipeline', async () => {
    const p = page(undefined, 'https://app.example/chat')
    await p.target.fetch('/v1/chat/completions', { method: 'POST', body: LLM_BODY })
    for (const event of p.events) expect(checkInspectorEvent(event)).toMatchObject({ ok: true })
    expect(p.events.map((e) => e.type)).toEqual(['agent', 'call', 'call', 'call', 'reminder', 'request'])
    expect(p.events[0]).toEqual({ type: 'agent', at: expect.any(Number), agent: { id: 'wire:1', kind: 'wire', label: 'You are a test agent.', format: 'openai-chat', reach: 'fetch' } })
    expect(p.events[4]).toMatchObject({ type: 'reminder', agentId: 'wire:1', seq: 3, level: 'gentle', text: GENTLE, placement: 'messages[8]' })
    expect(p.events[5]).toMatchObject({ type: 'request', agentId: 'wire:1', url: 'https://app.example/v1/chat/completions', format: 'openai-chat', calls: 3, remindersInserted: 1, rewritten: true })
    expect(p.events[1]).toMatchObject({ type: 'call', agentId: 'wire:1', seq: 1, tool: 'read_file', args: '{"path":"a.txt"}', argsLength: 16 })
  })

  test('the request URL reported has no secret in it; the one fetched is the page\'s own', async () => {
    const p = page(undefined, 'https://app.example/chat')
    const url = '/v1beta/models/gemini:generateContent?alt=sse&key=AIza-unit-secret#frag'
    await p.target.fetch(url, { method: 'POST', body: LLM_BODY })
    expect(p.calls[0]!.args[0]).toBe(url)
    expect(p.events.at(-1)).toMatchObject({ type: 'request', url: 'https://app.example/v1beta/models/gemini:generateContent?alt=sse&key=REDACTED' })
  })

  test('the snapshot holds the wire agents as the pipeline carries them', async () => {
    const target = vm.runInContext('globalThis', vm.createContext({ fetch: () => Promise.resolve(new Response('ok')), Request, Headers })) as typeof globalThis
    const interception = installFetchInterceptor({ target, config: () => RECOMMENDED_CONFIG, emit: () => {}, hookSaw: () => false, mode: () => 'guard' })
    await target.fetch('/v1', { method: 'POST', body: LLM_BODY })
    const agents = interception.snapshot()
    expect(agents).toEqual([
      { id: 'wire:1', kind: 'wire', label: 'You are a test agent.', format: 'openai-chat', reach: 'fetch', tool: 'read_file', args: '{"path":"a.txt"}', count: 3, nextThreshold: 5 },
    ])
    expect(checkInspectorEvent({ type: 'snapshot', at: 1, agents, config: RECOMMENDED_CONFIG })).toMatchObject({ ok: true })
    await target.fetch('/v1', { method: 'POST', body: JSON.stringify(openaiChatBody({ system: 'todo', turns: [{ prompt: 'go' }, { calls: [{ name: 'todo_write', args: {} }] }] })) })
    expect(interception.snapshot()[1]).toEqual({ id: 'wire:2', kind: 'wire', label: 'todo', format: 'openai-chat', reach: 'fetch', count: 0, nextThreshold: 3 })
  })

  test('a later request of the same agent reports only what is new', async () => {
    const p = page()
    await p.target.fetch('/v1', { method: 'POST', body: LLM_BODY })
    p.events.length = 0
    const next = JSON.stringify(openaiChatBody({ ...LOOP3, turns: [...LOOP3.turns, { prompt: 'stop' }, { calls: [READ] }] }))
    await p.target.fetch('/v1', { method: 'POST', body: next })
    expect(p.events.map((e) => e.type)).toEqual(['reset', 'call', 'request'])
  })

  test('a Request object: a clone is read, and a Request like it with the new body goes out', async () => {
    const p = page()
    const controller = new AbortController()
    const request = new Request('http://llm.local/v1/messages', {
      method: 'POST',
      body: JSON.stringify(anthropicBody(LOOP3)),
      headers: { 'content-type': 'application/json', 'x-api-key': 'k' },
      signal: controller.signal,
      credentials: 'omit',
    })
    await p.target.fetch(request)
    expect(request.bodyUsed).toBe(false)
    const [sent] = p.calls[0]!.args as [Request]
    expect(sent).toBeInstanceOf(Request)
    expect(sent).not.toBe(request)
    expect(sent.url).toBe(request.url)
    expect(sent.method).toBe('POST')
    expect(sent.credentials).toBe('omit')
    expect([...sent.headers]).toEqual([...request.headers])
    controller.abort()
    expect(sent.signal.aborted).toBe(true)
    const body = await sent.json()
    expect(body.messages[6].content[1]).toEqual({ type: 'text', text: GENTLE })
    expect(p.events.at(-1)).toMatchObject({ type: 'request', url: 'http://llm.local/v1/messages', format: 'anthropic', rewritten: true })
  })

  test('a Request object with nothing to insert goes out as it came', async () => {
    const p = page()
    const request = new Request('http://llm.local/v1', { method: 'POST', body: JSON.stringify(openaiChatBody({ turns: [{ prompt: 'go' }, { calls: [READ] }] })), headers: { 'content-type': 'application/json' } })
    await p.target.fetch(request)
    expect(p.calls[0]!.args[0]).toBe(request)
    expect(p.events.map((e) => e.type)).toEqual(['agent', 'call', 'request'])
  })

  test('the page\'s own agent (seen by the hook) is left alone', async () => {
    const p = page()
    p.hookSaw = true
    const init = { method: 'POST', body: LLM_BODY }
    await p.target.fetch('/v1', init)
    expect(p.calls[0]!.args[1]).toBe(init)
    expect(p.events).toEqual([])
  })
})

/** What fetch reads of an init, as Node's Request constructor (undici, after the WHATWG spec) reads it. */
function asRead(init: RequestInit): Record<string, unknown> {
  const r = new Request('http://llm.local/v1', init)
  return { method: r.method, headers: [...r.headers], keepalive: r.keepalive, credentials: r.credentials, mode: r.mode, cache: r.cache, redirect: r.redirect, referrerPolicy: r.referrerPolicy, integrity: r.integrity }
}

describe('a rewritten init keeps every field the page\'s own had', () => {
  const FIELDS = { method: 'POST', headers: { 'content-type': 'application/json', 'x-trace': 't1' }, keepalive: false, credentials: 'omit', cache: 'no-store', redirect: 'error', referrerPolicy: 'no-referrer', integrity: '' }

  class Options {
    #method = 'POST'
    body = LLM_BODY
    // Getters on the prototype, one of them reading a private field: only the page's own object has it.
    get method() {
      return this.#method
    }
    get headers() {
      return FIELDS.headers
    }
    get cache() {
      return FIELDS.cache
    }
  }
  const nonEnumerable = () => {
    const init: Record<string, unknown> = { body: LLM_BODY }
    for (const [key, value] of Object.entries(FIELDS)) Object.defineProperty(init, key, { value, enumerable: false })
    return init
  }
  const cases: [string, () => object][] = [
    ['a class instance with getters (a private field too)', () => new Options()],
    ['an object inheriting its fields', () => Object.assign(Object.create(FIELDS), { body: LLM_BODY })],
    ['non-enumerable fields', nonEnumerable],
    ['a frozen init', () => Object.freeze({ ...FIELDS, body: LLM_BODY })],
    ['a frozen init inheriting from a class', () => Object.freeze(new Options())],
  ]
  test.each(cases)('%s', async (_, make) => {
    const p = page()
    const init = make() as RequestInit
    await p.target.fetch('http://llm.local/v1', init)
    const [url, sent] = p.calls[0]!.args as [string, RequestInit]
    expect(url).toBe('http://llm.local/v1')
    expect(sent).not.toBe(init)
    expect(asRead(sent)).toEqual(asRead(init))
    expect(JSON.parse(sent.body as string).messages[8]).toEqual({ role: 'user', content: GENTLE })
    expect(init.body).toBe(LLM_BODY)
  })
})

describe('the origin\'s setting', () => {
  test('observe: the very same arguments go out; the events say where the reminder would go', async () => {
    const p = page(undefined, 'https://app.example/chat')
    p.mode = 'observe'
    const init = { method: 'POST', body: LLM_BODY }
    await p.target.fetch('/v1/chat/completions', init)
    expect(p.calls[0]!.args).toHaveLength(2)
    expect(p.calls[0]!.args[1]).toBe(init)
    for (const event of p.events) expect(checkInspectorEvent(event)).toMatchObject({ ok: true })
    expect(p.events.map((e) => e.type)).toEqual(['agent', 'call', 'call', 'call', 'reminder', 'request'])
    expect(p.events[4]).toMatchObject({ type: 'reminder', text: GENTLE, placement: 'messages[8]', withheld: 'observe' })
    expect(p.events[5]).toMatchObject({ type: 'request', remindersInserted: 1, rewritten: false, withheld: 'observe' })
    const request = new Request('http://llm.local/v1', { method: 'POST', body: LLM_BODY, headers: { 'content-type': 'application/json' } })
    await p.target.fetch(request)
    expect(p.calls[1]!.args[0]).toBe(request)
    expect(p.events.at(-1)).toMatchObject({ type: 'request', rewritten: false, withheld: 'observe' })
  })

  test('switched to guard, the next request of the same conversation gets the reminder', async () => {
    const p = page()
    p.mode = 'observe'
    await p.target.fetch('/v1', { method: 'POST', body: LLM_BODY })
    p.mode = 'guard'
    await p.target.fetch('/v1', { method: 'POST', body: LLM_BODY })
    expect(JSON.parse((p.calls[1]!.args[1] as RequestInit).body as string).messages[8]).toEqual({ role: 'user', content: GENTLE })
    expect(p.events.at(-1)).toEqual({ type: 'request', at: expect.any(Number), agentId: 'wire:1', url: expect.any(String), format: 'openai-chat', calls: 3, remindersInserted: 1, rewritten: true })
  })

  test.each(['guard', 'observe'] as const)('%s, with stopAfter: a call past the limit is a valid would-block event, and the body gets only the normal reminder', async (mode) => {
    const p = page()
    p.mode = mode
    p.config = resolveConfig({ stopAfter: 2 }, RECOMMENDED_CONFIG)
    const init = { method: 'POST', body: LLM_BODY }
    await p.target.fetch('/v1/chat/completions', init)
    for (const event of p.events) expect(checkInspectorEvent(event)).toMatchObject({ ok: true })
    expect(p.events.map((e) => e.type)).toEqual(['agent', 'call', 'call', 'blocked', 'call', 'reminder', 'request'])
    expect(p.events[3]).toEqual({ type: 'blocked', at: expect.any(Number), agentId: 'wire:1', tool: 'read_file', count: 2, feedback: expect.stringContaining('(stopAfter: 2)'), wouldBlock: true })
    const sent = mode === 'guard' ? ((p.calls[0]!.args[1] as RequestInit).body as string) : init.body
    const messages = JSON.parse(sent).messages
    expect(messages).toHaveLength(JSON.parse(LLM_BODY).messages.length + (mode === 'guard' ? 1 : 0))
    if (mode === 'guard') expect(messages[8]).toEqual({ role: 'user', content: GENTLE })
  })

  test('off: not analysed at all, no wire agent', async () => {
    const p = page()
    p.mode = 'off'
    const init = { method: 'POST', body: LLM_BODY }
    await p.target.fetch('/v1', init)
    expect(p.calls[0]!.args[1]).toBe(init)
    expect(p.events).toEqual([])
    p.mode = 'guard'
    await p.target.fetch('/v1', { method: 'POST', body: LLM_BODY })
    expect(p.events.map((e) => e.type)).toEqual(['agent', 'call', 'call', 'call', 'reminder', 'request'])
  })

  test('a setting that cannot be read sends the request as it came and reports a fault', async () => {
    const p = page()
    p.mode = undefined as unknown as ZeroCodeMode
    Object.defineProperty(p, 'mode', { get: () => { throw new Error('no setting') } })
    const init = { method: 'POST', body: LLM_BODY }
    await p.target.fetch('/v1', init)
    expect(p.calls[0]!.args[1]).toBe(init)
    expect(p.events).toMatchObject([{ type: 'fault', message: expect.stringContaining('no setting') }])
  })
})

describe('keep-alive', () => {
  /** An LLM body whose UTF-8 size is `bytes`, padded in its system prompt with `pad` (one or two bytes). */
  function bodyOfSize(bytes: number, pad: 'x' | 'é'): string {
    const base = JSON.stringify(openaiChatBody({ ...LOOP3, system: '' }))
    const room = bytes - new TextEncoder().encode(base).length
    const text = JSON.stringify(openaiChatBody({ ...LOOP3, system: pad.repeat(pad === 'x' ? room : room / 2) }))
    expect(new TextEncoder().encode(text).length).toBe(bytes)
    return text
  }

  test('a keep-alive Request goes out at once and untouched: no clone of it is read', () => {
    const p = page()
    const request = new Request('http://llm.local/v1', { method: 'POST', body: LLM_BODY, keepalive: true, headers: { 'content-type': 'application/json' } })
    void p.target.fetch(request)
    // Synchronously: nothing was awaited before the native fetch ran.
    expect(p.calls).toHaveLength(1)
    expect(p.calls[0]!.args[0]).toBe(request)
    expect(p.events).toEqual([])
  })

  test('a keep-alive init is rewritten when the body stays within 64 KB', async () => {
    const p = page()
    const body = bodyOfSize(60_000, 'x')
    await p.target.fetch('/v1', { method: 'POST', body, keepalive: true })
    const sent = p.calls[0]!.args[1] as RequestInit
    expect(sent.keepalive).toBe(true)
    expect(JSON.parse(sent.body as string).messages[8]).toEqual({ role: 'user', content: GENTLE })
  })

  test.each([
    ['ASCII', 'x'],
    ['two-byte characters, fewer than 65,536 of them', 'é'],
  ] as const)('a rewrite that would pass 65,536 bytes is not done (%s); the events say why', async (_, pad) => {
    const p = page()
    const body = bodyOfSize(65_500, pad)
    const init = { method: 'POST', body, keepalive: true }
    await p.target.fetch('/v1', init)
    expect(p.calls[0]!.args[1]).toBe(init)
    expect(p.events.find((e) => e.type === 'reminder')).toMatchObject({ placement: 'messages[8]', withheld: 'keepalive-limit' })
    expect(p.events.at(-1)).toMatchObject({ type: 'request', rewritten: false, withheld: 'keepalive-limit' })
    // The same body without keep-alive has no such limit.
    await p.target.fetch('/v1', { method: 'POST', body })
    expect(p.calls[1]!.args[1]).not.toBe(init)
    expect(p.events.at(-1)).toMatchObject({ type: 'request', rewritten: true })
  })

  test('keep-alive is taken from a Request the init does not override', async () => {
    const p = page()
    const body = bodyOfSize(65_500, 'x')
    const request = new Request('http://llm.local/v1', { method: 'POST', keepalive: true })
    const init = { body }
    await p.target.fetch(request, init)
    expect(p.calls[0]!.args[1]).toBe(init)
    await p.target.fetch(request, { body, keepalive: false })
    expect(p.events.at(-1)).toMatchObject({ type: 'request', rewritten: true })
  })
})

describe('a failure inside the interceptor sends the original request and reports a fault', () => {
  test('a config that cannot be read', async () => {
    const p = page()
    p.config = () => {
      throw new Error('no config')
    }
    const init = { method: 'POST', body: LLM_BODY }
    await p.target.fetch('/v1', init)
    expect(p.calls[0]!.args[1]).toBe(init)
    expect(p.events).toEqual([{ type: 'fault', at: expect.any(Number), message: 'fetch interceptor: the request went out unchanged: no config' }])
  })

  test('an invalid config, on a Request object too', async () => {
    const p = page()
    p.config = { ...RECOMMENDED_CONFIG, thresholds: [0] }
    const request = new Request('http://x/v1', { method: 'POST', body: LLM_BODY, headers: { 'content-type': 'application/json' } })
    await p.target.fetch(request)
    expect(p.calls[0]!.args[0]).toBe(request)
    expect(p.events).toMatchObject([{ type: 'fault', message: expect.stringContaining('thresholds') }])
  })

  test('a hostile init: a throwing getter, a thrown non-error that cannot even be printed', async () => {
    const p = page()
    const init = {
      method: 'POST',
      get body(): string {
        throw Object.create(null)
      },
    }
    await p.target.fetch('/v1', init)
    expect(p.calls[0]!.args[1]).toBe(init)
    expect(p.events).toMatchObject([{ type: 'fault', message: expect.stringContaining('unreadable error') }])
  })

  test('a broken event pipeline loses events, never the request', async () => {
    const target = vm.runInContext('globalThis', vm.createContext({ fetch: () => Promise.resolve(new Response('ok')), Request, Headers })) as typeof globalThis
    installFetchInterceptor({ target, config: () => { throw new Error('x') }, emit: () => { throw new Error('pipeline down') }, hookSaw: () => false, mode: () => 'guard' })
    await expect(target.fetch('/v1', { method: 'POST', body: LLM_BODY })).resolves.toBeInstanceOf(Response)
    const ok = vm.runInContext('globalThis', vm.createContext({ fetch: () => Promise.resolve(new Response('ok')), Request, Headers })) as typeof globalThis
    installFetchInterceptor({ target: ok, config: () => RECOMMENDED_CONFIG, emit: () => { throw new Error('pipeline down') }, hookSaw: () => false, mode: () => 'guard' })
    await expect(ok.fetch('/v1', { method: 'POST', body: LLM_BODY })).resolves.toBeInstanceOf(Response)
  })

  test('a Request whose body was already used', async () => {
    const p = page()
    const request = new Request('http://x/v1', { method: 'POST', body: LLM_BODY, headers: { 'content-type': 'application/json' } })
    await request.text()
    await p.target.fetch(request)
    expect(p.calls[0]!.args[0]).toBe(request)
    expect(p.events).toMatchObject([{ type: 'fault' }])
  })

  test('conversations are capped as asked', async () => {
    const target = vm.runInContext('globalThis', vm.createContext({ fetch: () => Promise.resolve(new Response('ok')), Request, Headers })) as typeof globalThis
    const events: InspectorEvent[] = []
    installFetchInterceptor({ target, config: () => resolveConfig({}), emit: (e) => events.push(e), hookSaw: () => false, mode: () => 'guard', maxConversations: 1 })
    const agent = (system: string) => JSON.stringify(openaiChatBody({ system, turns: [{ prompt: 'go' }, { calls: [READ] }] }))
    for (const system of ['a', 'b', 'a']) await target.fetch('/v1', { method: 'POST', body: agent(system) })
    expect(events.filter((e) => e.type === 'agent').map((e) => e.type === 'agent' && e.agent.id)).toEqual(['wire:1', 'wire:2', 'wire:3'])
  })
})

describe('with Node\'s real fetch and a local server', () => {
  let origin = ''
  const received: { url?: string; method?: string; headers: IncomingMessage['headers']; body: Buffer }[] = []
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = []
    for await (const chunk of req) chunks.push(chunk as Buffer)
    received.push({ url: req.url, method: req.method, headers: req.headers, body: Buffer.concat(chunks) })
    if (req.url === '/hang') return // never answers: only an abort ends it
    res.writeHead(200, { 'content-type': 'text/event-stream' })
    res.write('data: one\n\n')
    setTimeout(() => res.end('data: two\n\n'), 20)
  })
  beforeAll(async () => {
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok))
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })
  afterAll(() => {
    server.closeAllConnections()
    return new Promise<void>((ok) => server.close(() => ok()))
  })

  test('the rewritten request goes out whole, and its response streams back untouched', async () => {
    const p = page(fetch)
    const response = await p.target.fetch(`${origin}/v1/chat/completions`, { method: 'POST', body: LLM_BODY, headers: { 'content-type': 'application/json', 'x-key': 'k' } })
    expect(await response.text()).toBe('data: one\n\ndata: two\n\n')
    const got = received.at(-1)!
    expect(got.headers['x-key']).toBe('k')
    expect(JSON.parse(got.body.toString()).messages[8]).toEqual({ role: 'user', content: GENTLE })
    expect(Number(got.headers['content-length'])).toBe(got.body.length)
  })

  test('an aborted LLM request still aborts', async () => {
    const p = page(fetch)
    const controller = new AbortController()
    const pending = p.target.fetch(`${origin}/hang`, { method: 'POST', body: LLM_BODY, signal: controller.signal })
    // Aborted only once the server holds this request: the abort cuts a request in flight.
    await expect.poll(() => received.some((r) => r.url === '/hang')).toBe(true)
    controller.abort()
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' })
  })
})
