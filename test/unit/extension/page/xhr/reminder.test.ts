// The XMLHttpRequest hooks on an LLM request with a due reminder.
import { describe, expect, test } from 'vitest'
import { checkPanelEvent } from '../../../../../extension/src/protocol/validate.ts'
import { anthropicBody } from '../../../../fixtures/wire/conversations.ts'
import { GENTLE } from '../../../../fixtures/wire/reminders.ts'
import { LOOP3, LLM_BODY } from '../support/looping-agent.ts'
import { page, post, sentBody } from './fake-xhr-page.ts'

describe('an LLM request with a due reminder', () => {
  test("only the body changes, on the page's own XHR; events valid, the agent reached by xhr", () => {
    const p = page({ location: 'https://app.example/chat' })
    const xhr = post(p, '/v1/chat/completions', LLM_BODY, { 'Content-Type': 'application/json', Authorization: 'Bearer k' })
    expect(p.sent).toHaveLength(1)
    expect(p.sent[0]).toMatchObject({
      self: xhr,
      method: 'POST',
      url: '/v1/chat/completions',
      headers: [
        ['Content-Type', 'application/json'],
        ['Authorization', 'Bearer k'],
      ],
    })
    expect(p.sent[0]!.args).toHaveLength(1)
    expect(sentBody(p).messages[8]).toEqual({ role: 'user', content: GENTLE })
    expect(sentBody(p).messages.slice(0, 8)).toEqual(JSON.parse(LLM_BODY).messages)
    for (const event of p.events) expect(checkPanelEvent(event)).toMatchObject({ ok: true })
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
    for (const event of p.events) expect(checkPanelEvent(event)).toMatchObject({ ok: true })
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

  test("the page's own agent (seen by the hook) is left alone", () => {
    const p = page()
    p.hookSaw = true
    post(p, '/v1', LLM_BODY)
    expect(p.sent[0]!.args[0]).toBe(LLM_BODY)
    expect(p.events).toEqual([])
  })
})
