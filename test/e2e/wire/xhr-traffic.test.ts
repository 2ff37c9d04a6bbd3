// Zero-code mode over XMLHttpRequest, in Chromium with the built extension: the page's XHR traffic
// that is not an agent's (response types, events, synchronous requests, credentials, MIME
// overrides, headers, aborts, the native methods' errors) is run by the same page script with and
// without the extension, and must come out the same; bodies that are not LLM requests reach the
// server byte for byte.
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { openaiChatBody, repeat } from '../../fixtures/wire/conversations.ts'
import { occurrences } from '../../fixtures/wire/placements.ts'
import { GENTLE } from '../../fixtures/wire/reminders.ts'
import type { BodyKind, Outcome } from './pages/xhr-traffic.ts'
import { READ, received, useXhrStage } from './xhr-stage.ts'

const { stage, openPage } = useXhrStage(true)

describe("the page's other XHR traffic behaves as without the extension", () => {
  let pair: [Page, Page]
  beforeAll(async () => {
    pair = await Promise.all([openPage(stage.browser), openPage(stage.plain)])
  })
  afterAll(async () => {
    for (const page of pair ?? []) await page.close()
  })

  const BEHAVIOURS = [
    'responseType json',
    'responseType arraybuffer',
    'responseType text',
    'responseType blob',
    'progress and load events of a long response',
    'upload events of a JSON POST',
    'request headers as set',
    'overrideMimeType',
    'synchronous XHR',
    'withCredentials, to another origin',
    'a network error',
    'errors of the native methods',
  ]

  const run = (page: Page, name: string) => page.evaluate((n) => (window as unknown as { behaviours: Record<string, () => Promise<Outcome>> }).behaviours[n]!(), name)

  test.each(BEHAVIOURS)('%s', async (name) => {
    const [withExtension, without] = await Promise.all(pair.map((page) => run(page, name)))
    expect(withExtension).toEqual(without)
    // The cases do what they are named for (a comparison of two broken runs would pass too).
    if (name === 'responseType json') expect(withExtension.response).toEqual({ a: [1, 2, { b: 'c' }], s: 'é✓' })
    if (name === 'responseType arraybuffer') expect(withExtension.response).toEqual(Array.from({ length: 256 }, (_, i) => i))
    if (name === 'progress and load events of a long response') expect(withExtension.extra).toEqual([true, 16_384 * 12, 16_384 * 12])
    if (name === 'upload events of a JSON POST') expect(withExtension.events).toContain('upload load')
    if (name === 'request headers as set')
      expect(withExtension.response).toMatchObject({ custom: 'a, b', contentType: 'application/vnd.api+json', accept: 'application/x-ndjson', body: '{"hello":"world"}' })
    if (name === 'overrideMimeType') expect(withExtension.response).toEqual([true, 'root'])
    if (name === 'synchronous XHR')
      expect(withExtension).toMatchObject({ status: 200, readyState: 4, response: { body: '{"sync":true}' }, events: ['readyState 1', 'readyState 4', 'load', 'loadend'] })
    if (name === 'withCredentials, to another origin') expect(withExtension.response).toEqual([true, 'cookie: session=s1', false, 'cookie: none'])
    if (name === 'a network error') expect(withExtension).toMatchObject({ status: 0, events: expect.arrayContaining(['error', 'loadend']) })
    if (name === 'errors of the native methods') {
      expect((withExtension.response as string[]).every((text) => text !== 'nothing thrown')).toBe(true)
      expect(withExtension.response).toContain("DOMException InvalidStateError: Failed to execute 'send' on 'XMLHttpRequest': The object's state must be OPENED.")
    }
  })

  test('bodies that are not LLM requests reach the server byte for byte', async () => {
    const llm = JSON.stringify({ ...openaiChatBody({ system: 'a', turns: [{ prompt: 'go' }, ...repeat(READ, 3)] }), model: 'm' })
    const cases: [BodyKind, string][] = [
      ['json', '{"event":"click","at":1}'],
      ['json', '{"model":"m","messages":[{"role":"user","content":"h\u00e9llo \u2713"}]}'],
      ['text', 'plain text, not JSON \u2713'],
      ['blob', llm],
      ['bytes', llm],
      ['params', llm],
    ]
    const [page] = pair
    for (const [n, [kind, text]] of cases.entries()) {
      expect(
        await page.evaluate(([k, t, tag]) => (window as unknown as { sendBody: (k: string, t: string, tag: string) => Promise<number> }).sendBody(k, t, tag), [kind, text, `bytes-${n}`] as const),
      ).toBe(200)
      const got = received.find((r) => r.url === `/xhr/echo?bytes-${n}`)!
      const expected = kind === 'params' ? Buffer.from(new URLSearchParams({ text }).toString()) : Buffer.from(text, 'utf8')
      expect(got.body.equals(expected), `${kind} body ${n}`).toBe(true)
    }
  })

  test.each([
    ['a request that is not an LLM request', '{"event":"upload"}', 'plain'],
    ['an LLM request (guarded, then aborted)', JSON.stringify({ ...openaiChatBody({ system: 'a', turns: [{ prompt: 'go' }, ...repeat(READ, 3)] }), model: 'm' }), 'llm'],
  ])('an aborted XHR aborts: %s', async (_, body, tag) => {
    const outcomes: Outcome[] = []
    for (const [i, page] of pair.entries()) {
      const path = `/xhr/hang?${tag}-${i}`
      await page.evaluate(([p, b]) => (window as unknown as { startHanging: (p: string, b: string) => void }).startHanging(p, b), [path, body] as const)
      await expect.poll(() => received.some((r) => r.url === path)).toBe(true)
      outcomes.push(await page.evaluate(() => (window as unknown as { abortHanging: () => Promise<Outcome> }).abortHanging()))
      const got = received.find((r) => r.url === path)!
      await expect.poll(() => got.closedEarly).toBe(true)
      if (i === 0 && tag === 'llm') expect(occurrences(got.body.toString('utf8'), GENTLE)).toBe(1)
      else expect(got.body.toString('utf8')).toBe(body)
    }
    expect(outcomes[0]).toEqual(outcomes[1])
    expect(outcomes[0]).toMatchObject({ status: 0, readyState: 0, response: '' })
    expect(outcomes[0]!.events).toContain('abort')
    expect(outcomes[0]!.events).not.toContain('load')
    expect(outcomes[0]!.events.at(-1)).toBe('loadend')
  })
})
