// The fetch interceptor's rewritten init keeps every field of the page's own.
import { describe, expect, test } from 'vitest'
import { GENTLE } from '../../../../fixtures/wire/reminders.ts'
import { LLM_BODY } from '../support/looping-agent.ts'
import { page } from './fetch-page.ts'

/** What fetch reads of an init, as Node's Request constructor (undici, after the WHATWG spec) reads it. */
function asRead(init: RequestInit): Record<string, unknown> {
  const r = new Request('http://llm.local/v1', init)
  return {
    method: r.method,
    headers: [...r.headers],
    keepalive: r.keepalive,
    credentials: r.credentials,
    mode: r.mode,
    cache: r.cache,
    redirect: r.redirect,
    referrerPolicy: r.referrerPolicy,
    integrity: r.integrity,
  }
}

describe("a rewritten init keeps every field the page's own had", () => {
  const FIELDS = {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-trace': 't1' },
    keepalive: false,
    credentials: 'omit',
    cache: 'no-store',
    redirect: 'error',
    referrerPolicy: 'no-referrer',
    integrity: '',
  }

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
