// The fetch interceptor on keep-alive requests.
import { describe, expect, test } from 'vitest'
import { openaiChatBody } from '../../../../fixtures/wire/conversations.ts'
import { GENTLE } from '../../../../fixtures/wire/reminders.ts'
import { LOOP3, LLM_BODY } from '../support/looping-agent.ts'
import { page } from './fetch-page.ts'

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
