// The fetch interceptor on an LLM request with a due reminder.
import vm from 'node:vm'
import { describe, expect, test } from 'vitest'
import { RECOMMENDED_CONFIG } from '../../../../../engine/index.ts'
import { installFetchInterceptor } from './fetch-interceptor.ts'
import { checkPanelEvent } from '../../../../../extension/src/protocol/validate.ts'
import { anthropicBody, openaiChatBody } from '../../../../fixtures/wire/conversations.ts'
import { GENTLE } from '../../../../fixtures/wire/reminders.ts'
import { READ, LOOP3, LLM_BODY } from '../support/looping-agent.ts'
import { page } from './fetch-page.ts'

describe('an LLM request with a due reminder', () => {
  test("(url, init): only the body changes; headers, signal and every other field are the page's own objects", async () => {
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
    for (const event of p.events) expect(checkPanelEvent(event)).toMatchObject({ ok: true })
    expect(p.events.map((e) => e.type)).toEqual(['agent', 'call', 'call', 'call', 'reminder', 'request'])
    expect(p.events[0]).toEqual({ type: 'agent', at: expect.any(Number), agent: { id: 'wire:1', kind: 'wire', label: 'You are a test agent.', format: 'openai-chat', reach: 'fetch' } })
    expect(p.events[4]).toMatchObject({ type: 'reminder', agentId: 'wire:1', seq: 3, level: 'gentle', text: GENTLE, placement: 'messages[8]' })
    expect(p.events[5]).toMatchObject({ type: 'request', agentId: 'wire:1', url: 'https://app.example/v1/chat/completions', format: 'openai-chat', calls: 3, remindersInserted: 1, rewritten: true })
    expect(p.events[1]).toMatchObject({ type: 'call', agentId: 'wire:1', seq: 1, tool: 'read_file', args: '{"path":"a.txt"}', argsLength: 16 })
  })

  test("the request URL reported has no secret in it; the one fetched is the page's own", async () => {
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
    expect(checkPanelEvent({ type: 'snapshot', at: 1, agents, config: RECOMMENDED_CONFIG })).toMatchObject({ ok: true })
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
    const request = new Request('http://llm.local/v1', {
      method: 'POST',
      body: JSON.stringify(openaiChatBody({ turns: [{ prompt: 'go' }, { calls: [READ] }] })),
      headers: { 'content-type': 'application/json' },
    })
    await p.target.fetch(request)
    expect(p.calls[0]!.args[0]).toBe(request)
    expect(p.events.map((e) => e.type)).toEqual(['agent', 'call', 'request'])
  })

  test("the page's own agent (seen by the hook) is left alone", async () => {
    const p = page()
    p.hookSaw = true
    const init = { method: 'POST', body: LLM_BODY }
    await p.target.fetch('/v1', init)
    expect(p.calls[0]!.args[1]).toBe(init)
    expect(p.events).toEqual([])
  })
})
