// A failure inside the fetch interceptor sends the original request and reports a fault.
import vm from 'node:vm'
import { describe, expect, test } from 'vitest'
import { RECOMMENDED_CONFIG, resolveConfig } from '../../../../../engine/index.ts'
import { installFetchInterceptor } from './fetch-interceptor.ts'
import type { PanelEvent } from '../../../../../extension/src/protocol/events.ts'
import { openaiChatBody } from '../../../../fixtures/wire/conversations.ts'
import { READ, LLM_BODY } from '../support/looping-agent.ts'
import { page } from './fetch-page.ts'

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
    installFetchInterceptor({
      target,
      config: () => {
        throw new Error('x')
      },
      emit: () => {
        throw new Error('pipeline down')
      },
      hookSaw: () => false,
      mode: () => 'guard',
    })
    await expect(target.fetch('/v1', { method: 'POST', body: LLM_BODY })).resolves.toBeInstanceOf(Response)
    const ok = vm.runInContext('globalThis', vm.createContext({ fetch: () => Promise.resolve(new Response('ok')), Request, Headers })) as typeof globalThis
    installFetchInterceptor({
      target: ok,
      config: () => RECOMMENDED_CONFIG,
      emit: () => {
        throw new Error('pipeline down')
      },
      hookSaw: () => false,
      mode: () => 'guard',
    })
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
    const events: PanelEvent[] = []
    installFetchInterceptor({ target, config: () => resolveConfig({}), emit: (e) => events.push(e), hookSaw: () => false, mode: () => 'guard', maxConversations: 1 })
    const agent = (system: string) => JSON.stringify(openaiChatBody({ system, turns: [{ prompt: 'go' }, { calls: [READ] }] }))
    for (const system of ['a', 'b', 'a']) await target.fetch('/v1', { method: 'POST', body: agent(system) })
    expect(events.filter((e) => e.type === 'agent').map((e) => e.type === 'agent' && e.agent.id)).toEqual(['wire:1', 'wire:2', 'wire:3'])
  })
})
