// The fetch interceptor lets what is not an LLM request with a due reminder pass as it came.
import { describe, expect, test } from 'vitest'
import { LLM_BODY } from '../support/looping-agent.ts'
import { page } from './fetch-page.ts'

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
