// The registered process's fetch (docs/node.md, "How it works"), over Node's own fetch against a
// local server: a request that is not an LLM request reaches the native fetch as the app made it;
// an LLM request's body gets the due reminder and nothing else of the call changes; a failure of
// the guard never fails the app's call.
import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import { DEFAULT_CONFIG, type GuardConfig } from '../../../engine/index.ts'
import { createGuardEvents, type NodeGuardEvent } from '../../../node/guard-events.ts'
import { createGuardedFetch } from '../../../node/guarded-fetch.ts'
import { createWireAnalysis } from '../../../node/wire-analysis.ts'
import { openaiChatBody, repeat } from '../../fixtures/wire/conversations.ts'
import { GENTLE } from '../../fixtures/wire/reminders.ts'
import { type RecordingServer, recordingServer } from './support/recording-server.ts'

const LOOP = { system: 'You search.', turns: [{ prompt: 'Find x.' }, ...repeat({ name: 'grep', args: { q: 'x' }, result: 'no match' }, 3)] }
const LOOP_BODY = JSON.stringify(openaiChatBody(LOOP))
const reminded = (body: string) => {
  const messages = (JSON.parse(body) as { messages: unknown[] }).messages
  return JSON.stringify({ ...JSON.parse(body), messages: [...messages, { role: 'user', content: GENTLE }] })
}

let server: RecordingServer
beforeEach(async () => {
  server = await recordingServer()
})
afterEach(() => server.close())

interface Setup {
  readonly fetch: typeof fetch
  /** Every call the native fetch got: its `this` and its arguments. */
  readonly calls: { self: unknown; args: unknown[] }[]
  readonly events: NodeGuardEvent[]
}

function setup(options: { observe?: boolean; config?: () => GuardConfig } = {}): Setup {
  const calls: Setup['calls'] = []
  const native = function (this: unknown, ...args: unknown[]) {
    calls.push({ self: this, args })
    return Reflect.apply(fetch, undefined, args) as Promise<Response>
  } as typeof fetch
  const events = createGuardEvents()
  const seen: NodeGuardEvent[] = []
  events.subscribe((event) => seen.push(event))
  return { fetch: createGuardedFetch(native, createWireAnalysis({ observe: options.observe ?? false, config: options.config ?? (() => DEFAULT_CONFIG), events })), calls, events: seen }
}

describe('a request that is not an LLM request', () => {
  test.each([
    ['a GET', (url: string) => [url]],
    ['a GET with an init', (url: string) => [new URL(url), { headers: { accept: 'text/html' } }]],
    ['a JSON POST that is no conversation', (url: string) => [url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"name":"x"}' }]],
    ['a form POST', (url: string) => [url, { method: 'POST', body: new URLSearchParams({ a: '1' }) }]],
    ['a PUT of a conversation', (url: string) => [url, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: LOOP_BODY }]],
    ['a conversation sent as text/plain', (url: string) => [url, { method: 'POST', headers: [['Content-Type', 'text/plain']], body: LOOP_BODY }]],
  ])('%s goes to the native fetch with the same this and arguments', async (_, make) => {
    const { fetch: guarded, calls, events } = setup()
    const args = make(`${server.origin}/v1/chat/completions`)
    const self = { app: true }
    const response = await Reflect.apply(guarded, self, args)
    expect(response.status).toBe(200)
    expect(calls).toHaveLength(1)
    expect(calls[0]!.self).toBe(self)
    expect(calls[0]!.args).toHaveLength(args.length)
    calls[0]!.args.forEach((arg, i) => expect(arg).toBe(args[i]))
    expect(events).toEqual([])
  })
})

describe('an LLM request', () => {
  test('its body gets the due reminder; its headers, signal and other fields are the app’s own', async () => {
    const { fetch: guarded, calls, events } = setup()
    const headers = new Headers({ 'content-type': 'application/json', 'x-app': 'mine' })
    const controller = new AbortController()
    const init = { method: 'POST', headers, body: LOOP_BODY, signal: controller.signal, redirect: 'error' as const }
    const response = await guarded(`${server.origin}/v1/chat/completions`, init)
    expect(await response.json()).toEqual({ ok: true })
    expect(server.received.map((r) => r.body)).toEqual([reminded(LOOP_BODY)])
    expect(server.received[0]!.headers['x-app']).toBe('mine')
    const sent = calls[0]!.args[1] as RequestInit
    expect([sent.headers, sent.signal, sent.redirect, sent.method]).toEqual([headers, controller.signal, 'error', 'POST'])
    expect(sent.headers).toBe(headers)
    expect(sent.signal).toBe(controller.signal)
    // The app's init is left as it was.
    expect(init.body).toBe(LOOP_BODY)
    const wire = events.flatMap((e) => (e.type === 'wire' ? [e.event.type] : []))
    expect(wire).toEqual(['agent', 'call', 'call', 'call', 'reminder', 'request'])
    expect(events.every((e) => e.type === 'wire' && e.url === `${server.origin}/v1/chat/completions` && !e.observed)).toBe(true)
  })

  test('a Request object: its body is read from a clone and the Request sent is the same but for its body', async () => {
    const { fetch: guarded, calls } = setup()
    const controller = new AbortController()
    const request = new Request(`${server.origin}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-app': 'mine' },
      body: LOOP_BODY,
      signal: controller.signal,
    })
    await guarded(request)
    expect(server.received.map((r) => [r.body, r.headers['x-app']])).toEqual([[reminded(LOOP_BODY), 'mine']])
    expect(request.bodyUsed).toBe(false)
    const sent = calls[0]!.args[0] as Request
    expect(sent).not.toBe(request)
    controller.abort()
    expect(sent.signal.aborted).toBe(true)
  })

  test('observe mode: analysed and reported, sent as the app made it', async () => {
    const { fetch: guarded, calls, events } = setup({ observe: true })
    const init = { method: 'POST', headers: { 'content-type': 'application/json' }, body: LOOP_BODY }
    await guarded(`${server.origin}/v1/chat/completions`, init)
    expect(server.received.map((r) => r.body)).toEqual([LOOP_BODY])
    expect(calls[0]!.args[1]).toBe(init)
    expect(events.filter((e) => e.type === 'wire' && e.event.type === 'reminder').map((e) => e.type === 'wire' && e.observed)).toEqual([true])
  })

  test('a failure of the guard sends the request as the app made it, and is reported', async () => {
    const {
      fetch: guarded,
      calls,
      events,
    } = setup({
      config: () => {
        throw new Error('config unreadable')
      },
    })
    const init = { method: 'POST', headers: { 'content-type': 'application/json' }, body: LOOP_BODY }
    const response = await guarded(`${server.origin}/v1/chat/completions`, init)
    expect(response.status).toBe(200)
    expect(server.received.map((r) => r.body)).toEqual([LOOP_BODY])
    expect(calls[0]!.args[1]).toBe(init)
    expect(events).toEqual([{ type: 'fault', at: expect.any(Number), message: 'fetch interceptor: the request went out unchanged: config unreadable' }])
  })

  test("the native fetch's own failure is the app's, unchanged", async () => {
    const { fetch: guarded } = setup()
    const init = { method: 'POST', headers: { 'content-type': 'application/json' }, body: LOOP_BODY, signal: AbortSignal.abort(new Error('the app gave up')) }
    await expect(guarded(`${server.origin}/v1/chat/completions`, init)).rejects.toThrow('the app gave up')
  })
})
