// The XMLHttpRequest hooks let what is not an LLM request with a due reminder pass as it came.
import { describe, expect, test } from 'vitest'
import { LLM_BODY } from '../support/looping-agent.ts'
import { page, post } from './fake-xhr-page.ts'

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

  test("the native method's return value, arguments past the body and headers reach the native calls as given", () => {
    const p = page()
    const xhr = new p.XHR()
    expect(xhr.open('POST', '/v1', false, 'user', 'secret')).toBeUndefined()
    xhr.setRequestHeader('X-Trace', 't1')
    expect(Reflect.apply(xhr.send, xhr, ['hello', 'extra'])).toBeUndefined()
    expect(p.sent[0]).toMatchObject({ args: ['hello', 'extra'], method: 'POST', url: '/v1', headers: [['X-Trace', 't1']] })
  })
})
