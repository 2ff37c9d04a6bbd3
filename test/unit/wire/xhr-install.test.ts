// The XMLHttpRequest hooks in Node: a separate realm stands for the page (so patching its
// Function.prototype.toString leaves the test runner alone), with a fake XMLHttpRequest of that
// realm as the native one. The fake keeps the native rules the hooks rely on (open before
// setRequestHeader and send, one send per open, illegal invocation on a foreign receiver) and
// records every send as the network would get it.
import vm from 'node:vm'
import { describe, expect, test } from 'vitest'
import { RECOMMENDED_CONFIG, type GuardConfig } from '../../../engine/index.ts'
import { createNativeLook } from '../../../extension/src/page/native-look.ts'
import { createWireInspector, type WireInspector } from '../../../extension/src/page/wire/inspector.ts'
import { installXhrInterceptor } from '../../../extension/src/page/xhr/install.ts'
import type { InspectorEvent } from '../../../extension/src/protocol/events.ts'
import { checkInspectorEvent } from '../../../extension/src/protocol/validate.ts'
import type { ZeroCodeMode } from '../../../extension/src/protocol/zero-code-mode.ts'
import { anthropicBody, openaiChatBody, repeat, type Script } from '../../fixtures/wire/conversations.ts'
import { GENTLE } from '../../fixtures/wire/reminders.ts'

const READ = { name: 'read_file', args: { path: 'a.txt' } }
const LOOP3: Script = { system: 'You are a test agent.', turns: [{ prompt: 'go' }, ...repeat(READ, 3)] }
const LLM_BODY = JSON.stringify(openaiChatBody(LOOP3))

/** What reached the fake network: one entry per native send that went through. */
interface Sent {
  readonly self: unknown
  readonly args: unknown[]
  readonly method: string
  readonly url: string
  readonly headers: [string, string][]
  /** Inspector events already reported when the native send ran. */
  readonly eventsBefore: number
}

const FAKE_XHR = `
  class XMLHttpRequest {
    #opened = false
    #sent = false
    #method = ''
    #url = ''
    #headers = []
    open(method, url) {
      if (arguments.length < 2) throw new TypeError("Failed to execute 'open' on 'XMLHttpRequest': 2 arguments required")
      if (!/^[A-Za-z-]+$/.test(String(method))) throw new SyntaxError("'" + method + "' is not a valid HTTP method.")
      this.#opened = true
      this.#sent = false
      this.#method = String(method)
      this.#url = String(url)
      this.#headers = []
    }
    setRequestHeader(name, value) {
      if (!this.#opened || this.#sent) throw new DOMException("The object's state must be OPENED.", 'InvalidStateError')
      this.#headers.push([String(name), String(value)])
    }
    send(body) {
      if (!this.#opened || this.#sent) throw new DOMException("The object's state must be OPENED.", 'InvalidStateError')
      this.#sent = true
      network(this, [...arguments], this.#method, this.#url, this.#headers)
      if (this.#url.endsWith('/offline')) throw new DOMException('Failed to load', 'NetworkError')
      return undefined
    }
    abort() {}
    get readyState() { return this.#opened ? 1 : 0 }
  }
  XMLHttpRequest
`

interface Page {
  readonly target: typeof globalThis
  readonly XHR: typeof XMLHttpRequest
  readonly events: InspectorEvent[]
  readonly sent: Sent[]
  /** How many times the analysis was asked for (the on-demand half is built by the first). */
  readonly asked: () => number
  config: GuardConfig | (() => never)
  mode: ZeroCodeMode | (() => never)
  hookSaw: boolean
}

interface PageOptions {
  readonly location?: string
  /** Stands for the analysis instead of the real one. */
  readonly inspector?: () => WireInspector
}

/** A page realm with the fake XHR hooked as the page script hooks the real one. */
function page({ location, inspector: stand }: PageOptions = {}): Page {
  const sent: Sent[] = []
  const events: InspectorEvent[] = []
  const network = (self: unknown, args: unknown[], method: string, url: string, headers: [string, string][]) =>
    sent.push({ self, args, method, url, headers: [...headers], eventsBefore: events.length })
  const context = vm.createContext({ network, URL, DOMException, location: location ? { href: location } : undefined })
  const target = vm.runInContext('globalThis', context) as typeof globalThis
  const XHR = vm.runInContext(FAKE_XHR, context) as typeof XMLHttpRequest
  Object.defineProperty(target, 'XMLHttpRequest', { value: XHR, writable: true, enumerable: false, configurable: true })
  let asked = 0
  let inspector: WireInspector | undefined
  const state: Page = {
    target,
    XHR,
    events,
    sent,
    asked: () => asked,
    config: RECOMMENDED_CONFIG,
    mode: 'guard',
    hookSaw: false,
  }
  const read = <T>(value: T | (() => never)): T => (typeof value === 'function' ? (value as () => never)() : value)
  const installed = installXhrInterceptor({
    target,
    mode: () => read(state.mode),
    showAsNative: createNativeLook(target),
    inspector: () => {
      asked++
      if (stand) return stand()
      return (inspector ??= createWireInspector({ config: () => read(state.config), emit: (e) => events.push(e), hookSaw: () => state.hookSaw, now: () => 1 }))
    },
  })
  expect(installed).toBe(true)
  return state
}

/** open, headers, send: the way axios drives an XHR. */
function post(p: Page, url: string, body: unknown, headers: Record<string, string> = { 'Content-Type': 'application/json' }): XMLHttpRequest {
  const xhr = new p.XHR()
  xhr.open('POST', url, true)
  for (const [name, value] of Object.entries(headers)) xhr.setRequestHeader(name, value)
  xhr.send(body as XMLHttpRequestBodyInit)
  return xhr
}

const sentBody = (p: Page, n = 0) => JSON.parse(p.sent[n]!.args[0] as string)

describe('methods that still look native', () => {
  test('open, setRequestHeader and send keep their name, length, printed source and descriptors', () => {
    const context = vm.createContext({ network: () => {}, DOMException, URL })
    const target = vm.runInContext('globalThis', context) as typeof globalThis
    const XHR = vm.runInContext(`${FAKE_XHR}; globalThis.XMLHttpRequest = XMLHttpRequest`, context) as typeof XMLHttpRequest
    const names = ['open', 'setRequestHeader', 'send'] as const
    const before = Object.fromEntries(names.map((name) => [name, Object.getOwnPropertyDescriptor(XHR.prototype, name)!]))
    const others = ['abort', 'readyState'].map((name) => Object.getOwnPropertyDescriptor(XHR.prototype, name))
    expect(installXhrInterceptor({ target, mode: () => 'guard', inspector: () => { throw new Error('not asked') }, showAsNative: createNativeLook(target) })).toBe(true)
    const toString = target.Function.prototype.toString
    for (const name of names) {
      const original = before[name]!.value as (...args: unknown[]) => unknown
      const hooked = XHR.prototype[name] as (...args: unknown[]) => unknown
      expect(hooked).not.toBe(original)
      expect(hooked.name).toBe(name)
      expect(hooked.length).toBe(original.length)
      expect(toString.call(hooked)).toBe(toString.call(original))
      expect(vm.runInContext(`String(XMLHttpRequest.prototype.${name})`, context)).toBe(toString.call(original))
      expect({ ...Object.getOwnPropertyDescriptor(XHR.prototype, name), value: undefined }).toEqual({ ...before[name], value: undefined })
    }
    expect(['abort', 'readyState'].map((name) => Object.getOwnPropertyDescriptor(XHR.prototype, name))).toEqual(others)
  })

  test('a realm without XMLHttpRequest, or without one of its methods, is left alone', () => {
    const options = { mode: () => 'guard' as const, inspector: () => { throw new Error('not asked') } }
    const bare = vm.runInContext('globalThis', vm.createContext({})) as typeof globalThis
    expect(installXhrInterceptor({ target: bare, ...options, showAsNative: createNativeLook(bare) })).toBe(false)
    const context = vm.createContext({ network: () => {}, DOMException, URL })
    const target = vm.runInContext('globalThis', context) as typeof globalThis
    const XHR = vm.runInContext(`${FAKE_XHR}; delete XMLHttpRequest.prototype.send; globalThis.XMLHttpRequest = XMLHttpRequest`, context) as typeof XMLHttpRequest
    const open = XHR.prototype.open
    expect(installXhrInterceptor({ target, ...options, showAsNative: createNativeLook(target) })).toBe(false)
    expect(XHR.prototype.open).toBe(open)
  })
})

describe('what passes untouched: the very same arguments, the analysis never asked', () => {
  const formData = new FormData()
  const cases: [string, string, unknown, Record<string, string>?][] = [
    ['a GET', 'GET', null],
    ['a GET with no body at all', 'GET', undefined],
    ['FormData', 'POST', formData],
    ['a Blob', 'POST', new Blob([LLM_BODY])],
    ['bytes', 'POST', new TextEncoder().encode(LLM_BODY)],
    ['URLSearchParams', 'POST', new URLSearchParams('a=1')],
    ['a non-JSON string', 'POST', 'hello'],
    ['a JSON array', 'POST', '[1,2]'],
    ['a JSON PUT', 'PUT', LLM_BODY],
    ['a JSON POST sent as text/plain', 'POST', LLM_BODY, { 'content-type': 'text/plain' }],
    ['a Content-Type that is not text', 'POST', LLM_BODY, { 'Content-Type': { toString: () => 'application/json' } as unknown as string }],
  ]
  test.each(cases)('%s', (_, method, body, headers = { 'Content-Type': 'application/json' }) => {
    const p = page()
    const xhr = new p.XHR()
    xhr.open(method, '/api')
    for (const [name, value] of Object.entries(headers)) xhr.setRequestHeader(name, value)
    if (body === undefined) xhr.send()
    else xhr.send(body as XMLHttpRequestBodyInit)
    expect(p.sent).toHaveLength(1)
    expect(p.sent[0]!.self).toBe(xhr)
    expect(p.sent[0]!.args).toEqual(body === undefined ? [] : [body])
    if (body !== undefined) expect(p.sent[0]!.args[0]).toBe(body)
    expect(p.asked()).toBe(0)
    expect(p.events).toEqual([])
  })

  test('JSON POSTs that are not LLM requests are analysed but go out as they came, with no event', () => {
    const p = page()
    const beacon = '{"event":"click"}'
    post(p, '/collect', beacon)
    post(p, '/v1/chat/completions', '{"messages":[{"role":"user","content":"hi"}]}', {})
    expect(p.sent.map((s) => s.args)).toEqual([[beacon], ['{"messages":[{"role":"user","content":"hi"}]}']])
    expect(p.events).toEqual([])
  })

  test('the native method\'s return value, arguments past the body and headers reach the native calls as given', () => {
    const p = page()
    const xhr = new p.XHR()
    expect(xhr.open('POST', '/v1', false, 'user', 'secret')).toBeUndefined()
    xhr.setRequestHeader('X-Trace', 't1')
    expect(Reflect.apply(xhr.send, xhr, ['hello', 'extra'])).toBeUndefined()
    expect(p.sent[0]).toMatchObject({ args: ['hello', 'extra'], method: 'POST', url: '/v1', headers: [['X-Trace', 't1']] })
  })
})

describe('an LLM request with a due reminder', () => {
  test('only the body changes, on the page\'s own XHR; events valid, the agent reached by xhr', () => {
    const p = page({ location: 'https://app.example/chat' })
    const xhr = post(p, '/v1/chat/completions', LLM_BODY, { 'Content-Type': 'application/json', Authorization: 'Bearer k' })
    expect(p.sent).toHaveLength(1)
    expect(p.sent[0]).toMatchObject({ self: xhr, method: 'POST', url: '/v1/chat/completions', headers: [['Content-Type', 'application/json'], ['Authorization', 'Bearer k']] })
    expect(p.sent[0]!.args).toHaveLength(1)
    expect(sentBody(p).messages[8]).toEqual({ role: 'user', content: GENTLE })
    expect(sentBody(p).messages.slice(0, 8)).toEqual(JSON.parse(LLM_BODY).messages)
    for (const event of p.events) expect(checkInspectorEvent(event)).toMatchObject({ ok: true })
    expect(p.events.map((e) => e.type)).toEqual(['agent', 'call', 'call', 'call', 'reminder', 'request'])
    expect(p.events[0]).toEqual({ type: 'agent', at: expect.any(Number), agent: { id: 'wire:1', kind: 'wire', label: 'You are a test agent.', format: 'openai-chat', reach: 'xhr' } })
    expect(p.events[4]).toMatchObject({ type: 'reminder', agentId: 'wire:1', seq: 3, level: 'gentle', text: GENTLE, placement: 'messages[8]' })
    expect(p.events[5]).toMatchObject({ type: 'request', url: 'https://app.example/v1/chat/completions', format: 'openai-chat', calls: 3, remindersInserted: 1, rewritten: true })
  })

  test.each([
    ['no Content-Type (it goes out as text/plain)', {}],
    ['a JSON type with parameters, named in any case', { 'content-TYPE': 'application/json; charset=utf-8' }],
    ['a Content-Type set twice (the browser joins them)', { 'Content-Type': 'application/json', 'content-type': 'text/plain' }],
  ])('the body of a JSON POST is guarded: %s', (_, headers) => {
    const p = page()
    post(p, 'http://llm.local/v1/messages', JSON.stringify(anthropicBody(LOOP3)), headers)
    expect(sentBody(p).messages[6].content[1]).toEqual({ type: 'text', text: GENTLE })
    expect(p.events.at(-1)).toMatchObject({ type: 'request', url: 'http://llm.local/v1/messages', format: 'anthropic', rewritten: true })
  })

  test('the method in any case; a URL object; leading white space before the JSON', () => {
    const p = page({ location: 'https://app.example/' })
    const xhr = new p.XHR()
    xhr.open('post', new URL('https://llm.example/v1/chat/completions?key=s3cret') as unknown as string)
    xhr.send(`\n ${LLM_BODY}`)
    expect(sentBody(p).messages[8]).toEqual({ role: 'user', content: GENTLE })
    expect(p.events.at(-1)).toMatchObject({ type: 'request', url: 'https://llm.example/v1/chat/completions?key=REDACTED' })
  })

  test('a URL that is neither text nor a URL object is not turned into text a second time', () => {
    const p = page()
    let printed = 0
    const url = { toString: () => (printed++, '/v1/chat/completions') }
    const xhr = new p.XHR()
    xhr.open('POST', url as unknown as string)
    xhr.send(LLM_BODY)
    expect(printed).toBe(1)
    expect(sentBody(p).messages[8]).toEqual({ role: 'user', content: GENTLE })
    expect(p.events.at(-1)).toMatchObject({ type: 'request', url: '' })
    for (const event of p.events) expect(checkInspectorEvent(event)).toMatchObject({ ok: true })
  })

  test('an unparsable URL is reported as given', () => {
    const p = page()
    post(p, 'http://[bad', LLM_BODY)
    expect(p.events.at(-1)).toMatchObject({ type: 'request', url: 'http://[bad' })
  })

  test('the events are reported once the native send has returned (a synchronous XHR has finished by then)', () => {
    const p = page()
    post(p, '/v1', LLM_BODY)
    expect(p.sent[0]!.eventsBefore).toBe(0)
    expect(p.events).toHaveLength(6)
  })

  test('an XHR opened again is a new request: each of its sends is guarded', () => {
    const p = page()
    const xhr = new p.XHR()
    xhr.open('GET', '/first')
    xhr.send()
    xhr.open('POST', '/v1')
    xhr.send(LLM_BODY)
    expect(p.sent.map((s) => s.url)).toEqual(['/first', '/v1'])
    expect(JSON.parse(p.sent[1]!.args[0] as string).messages[8]).toEqual({ role: 'user', content: GENTLE })
  })

  test('the page\'s own agent (seen by the hook) is left alone', () => {
    const p = page()
    p.hookSaw = true
    post(p, '/v1', LLM_BODY)
    expect(p.sent[0]!.args[0]).toBe(LLM_BODY)
    expect(p.events).toEqual([])
  })
})

describe('the native methods\' own errors reach the page, from the native call', () => {
  const thrown = (run: () => void): unknown => {
    try {
      run()
    } catch (error) {
      return error
    }
    throw new Error('nothing thrown')
  }

  test('send or setRequestHeader before open; open with a bad method or too few arguments', () => {
    const p = page()
    const xhr = new p.XHR()
    expect(thrown(() => xhr.send(LLM_BODY))).toMatchObject({ name: 'InvalidStateError' })
    expect(thrown(() => xhr.setRequestHeader('Content-Type', 'application/json'))).toMatchObject({ name: 'InvalidStateError' })
    expect(thrown(() => xhr.open('BAD METHOD', '/v1'))).toBeInstanceOf(p.target.SyntaxError)
    expect(thrown(() => (xhr.open as (m: string) => void)('POST'))).toBeInstanceOf(p.target.TypeError)
    expect(p.sent).toEqual([])
    expect(p.asked()).toBe(0)
  })

  test('a second send of the same request: the native error, and the request is not counted twice', () => {
    const p = page()
    const xhr = post(p, '/v1', LLM_BODY)
    const events = p.events.length
    expect(thrown(() => xhr.send(LLM_BODY))).toMatchObject({ name: 'InvalidStateError' })
    expect(p.sent).toHaveLength(1)
    expect(p.events).toHaveLength(events)
  })

  test('a foreign receiver: the native TypeError', () => {
    const p = page()
    for (const name of ['open', 'setRequestHeader', 'send'] as const)
      expect(thrown(() => Reflect.apply(p.XHR.prototype[name], {}, ['POST', '/v1']))).toBeInstanceOf(p.target.TypeError)
    expect(p.asked()).toBe(0)
  })

  /** The frames of an error's stack, its first line (name and message) left out. */
  const framesOf = (error: unknown): string[] => ((error as Error).stack ?? '').split('\n').slice(1)

  test('with text arguments, the stack is the one the native gives without the hook: it starts at the page\'s call', () => {
    const p = page()
    const xhr = new p.XHR()
    function pageSendsFirst(): void {
      xhr.send(LLM_BODY)
    }
    function pageSetsAHeaderFirst(): void {
      xhr.setRequestHeader('Content-Type', 'application/json')
    }
    function pageOpensWithABadMethod(): void {
      xhr.open('BAD METHOD', '/v1')
    }
    for (const call of [pageSendsFirst, pageSetsAHeaderFirst, pageOpensWithABadMethod]) {
      const frames = framesOf(thrown(call))
      expect(frames[0]).toMatch(new RegExp(`^\\s+at ${call.name} \\(`))
      expect(frames.join('\n')).not.toContain('/extension/src/page/')
    }
  })

  test('a guarded send the native refuses: the stack starts at the page\'s call too', () => {
    const p = page()
    const xhr = new p.XHR()
    xhr.open('POST', '/offline', false)
    function pageSends(): void {
      xhr.send(LLM_BODY)
    }
    const frames = framesOf(thrown(pageSends))
    expect(sentBody(p).messages[8]).toEqual({ role: 'user', content: GENTLE })
    expect(frames[0]).toMatch(/^\s+at pageSends \(/)
    expect(frames.join('\n')).not.toContain('/extension/src/page/')
  })

  test('with an object among the arguments, the error is left as it was thrown: the page\'s own code may have thrown it', () => {
    const p = page()
    const xhr = new p.XHR()
    const frames = framesOf(thrown(() => xhr.send(new p.target.Object() as XMLHttpRequestBodyInit)))
    expect(frames.join('\n')).toContain('/extension/src/page/xhr/install.ts')
  })

  test('a guarded send that fails in the network (a synchronous XHR): the native error, the request still reported', () => {
    const p = page()
    const xhr = new p.XHR()
    xhr.open('POST', '/offline', false)
    expect(thrown(() => xhr.send(LLM_BODY))).toMatchObject({ name: 'NetworkError' })
    expect(sentBody(p).messages[8]).toEqual({ role: 'user', content: GENTLE })
    expect(p.events.at(-1)).toMatchObject({ type: 'request', rewritten: true })
  })
})

describe('the origin\'s setting', () => {
  test('observe: the very same body goes out; the events say where the reminder would go', () => {
    const p = page()
    p.mode = 'observe'
    post(p, '/v1', LLM_BODY)
    expect(p.sent[0]!.args[0]).toBe(LLM_BODY)
    expect(p.events.map((e) => e.type)).toEqual(['agent', 'call', 'call', 'call', 'reminder', 'request'])
    expect(p.events[4]).toMatchObject({ type: 'reminder', placement: 'messages[8]', withheld: 'observe' })
    expect(p.events[5]).toMatchObject({ type: 'request', rewritten: false, withheld: 'observe' })
  })

  test('off: not analysed at all; switched to guard, the next request gets the reminder', () => {
    const p = page()
    p.mode = 'off'
    const xhr = post(p, '/v1', LLM_BODY)
    expect(p.sent[0]!.args[0]).toBe(LLM_BODY)
    expect(p.asked()).toBe(0)
    // The request taken while off is not analysed by a later send of it (the native one throws).
    p.mode = 'guard'
    expect(() => xhr.send(LLM_BODY)).toThrow()
    expect(p.asked()).toBe(0)
    post(p, '/v1', LLM_BODY)
    expect(sentBody(p, 1).messages[8]).toEqual({ role: 'user', content: GENTLE })
  })
})

describe('a failure inside the hooks sends the request as it came and reports a fault', () => {
  test('a setting that cannot be read', () => {
    const p = page()
    p.mode = () => {
      throw new Error('no setting')
    }
    post(p, '/v1', LLM_BODY)
    expect(p.sent[0]!.args[0]).toBe(LLM_BODY)
    expect(p.events).toEqual([{ type: 'fault', at: 1, message: 'xhr interceptor: the request went out unchanged: no setting' }])
  })

  test('a config that cannot be read', () => {
    const p = page()
    p.config = () => {
      throw new Error('no config')
    }
    post(p, '/v1', LLM_BODY)
    expect(p.sent[0]!.args[0]).toBe(LLM_BODY)
    expect(p.events).toEqual([{ type: 'fault', at: 1, message: 'xhr interceptor: the request went out unchanged: no config' }])
  })

  test('an analysis that cannot be built, nor report its failure: the request as it came, nothing thrown', () => {
    const p = page({
      inspector: () => {
        throw new Error('no on-demand half')
      },
    })
    post(p, '/v1', LLM_BODY)
    expect(p.sent[0]!.args[0]).toBe(LLM_BODY)
    expect(p.asked()).toBe(2)
  })

  test('a report that throws after the send: the native result still reaches the page', () => {
    const p = page({
      inspector: () => ({
        plan: (args) => ({
          args,
          after: () => {
            throw new Error('pipeline down')
          },
        }),
        failed: (args) => ({ args, after: () => undefined }),
        snapshot: () => [],
      }),
    })
    const xhr = new p.XHR()
    xhr.open('POST', '/v1')
    expect(xhr.send(LLM_BODY)).toBeUndefined()
    expect(p.sent).toHaveLength(1)
  })

  test('a native open that accepts any receiver: nothing noted, nothing thrown', () => {
    const p = page()
    const open = vm.runInContext('(function open(method, url) {})', vm.createContext({})) as XMLHttpRequest['open']
    const descriptor = Object.getOwnPropertyDescriptor(p.XHR.prototype, 'open')!
    Object.defineProperty(p.XHR.prototype, 'open', { ...descriptor, value: open })
    const target = p.target
    // Hooked again over that open: the hook's notes on a primitive receiver cannot be kept.
    installXhrInterceptor({ target, mode: () => 'guard', inspector: () => { throw new Error('not asked') }, showAsNative: createNativeLook(target) })
    expect(Reflect.apply(p.XHR.prototype.open, undefined, ['POST', '/v1'])).toBeUndefined()
  })
})

describe('a page that replaces built-ins after the hooks are installed', () => {
  test('WeakMap\'s methods and Reflect.apply: still guarded, neither called', () => {
    const p = page({ location: 'https://app.example/' })
    const called: string[] = []
    const replace = (owner: Record<string, unknown>, key: string) => {
      Object.defineProperty(owner, key, {
        value: () => {
          called.push(key)
          throw new Error(`${key} replaced by the page`)
        },
        configurable: true,
        writable: true,
      })
    }
    const { WeakMap: W, Reflect: R } = p.target
    for (const key of ['get', 'set', 'delete', 'has']) replace(W.prototype as unknown as Record<string, unknown>, key)
    replace(R as unknown as Record<string, unknown>, 'apply')
    post(p, '/v1', LLM_BODY)
    expect(sentBody(p).messages[8]).toEqual({ role: 'user', content: GENTLE })
    expect(called).toEqual([])
    expect(p.events.at(-1)).toMatchObject({ type: 'request', url: 'https://app.example/v1', rewritten: true })
  })
})
