// The fetch interceptor under each per-origin setting.
import { describe, expect, test } from 'vitest'
import { RECOMMENDED_CONFIG, resolveConfig } from '../../../../../engine/index.ts'
import { checkPanelEvent } from '../../../../../extension/src/protocol/validate.ts'
import type { ZeroCodeMode } from '../../../../../extension/src/protocol/zero-code-mode.ts'
import { GENTLE } from '../../../../fixtures/wire/reminders.ts'
import { LLM_BODY } from '../support/looping-agent.ts'
import { page } from './fetch-page.ts'

describe("the origin's setting", () => {
  test('observe: the very same arguments go out; the events say where the reminder would go', async () => {
    const p = page(undefined, 'https://app.example/chat')
    p.mode = 'observe'
    const init = { method: 'POST', body: LLM_BODY }
    await p.target.fetch('/v1/chat/completions', init)
    expect(p.calls[0]!.args).toHaveLength(2)
    expect(p.calls[0]!.args[1]).toBe(init)
    for (const event of p.events) expect(checkPanelEvent(event)).toMatchObject({ ok: true })
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
    for (const event of p.events) expect(checkPanelEvent(event)).toMatchObject({ ok: true })
    expect(p.events.map((e) => e.type)).toEqual(['agent', 'call', 'call', 'blocked', 'call', 'reminder', 'request'])
    expect(p.events[3]).toEqual({
      type: 'blocked',
      at: expect.any(Number),
      agentId: 'wire:1',
      tool: 'read_file',
      count: 2,
      feedback: expect.stringContaining('(stopAfter: 2)'),
      wouldBlock: true,
      // No response of this conversation was read: no tokens are known, so none are reported
      // (which the panel would show as a measured zero).
      wasteMs: expect.any(Number),
    })
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
    Object.defineProperty(p, 'mode', {
      get: () => {
        throw new Error('no setting')
      },
    })
    const init = { method: 'POST', body: LLM_BODY }
    await p.target.fetch('/v1', init)
    expect(p.calls[0]!.args[1]).toBe(init)
    expect(p.events).toMatchObject([{ type: 'fault', message: expect.stringContaining('no setting') }])
  })
})
