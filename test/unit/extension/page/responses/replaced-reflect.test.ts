// Responses API requests on a page that replaces Reflect.apply after load.
import { describe, expect, test } from 'vitest'
import { occurrences } from '../../../../fixtures/wire/placements.ts'
import { GENTLE } from '../../../../fixtures/wire/reminders.ts'
import { call, first, next, json, page, post } from './responses-page.ts'

describe('a page that replaces Reflect.apply after load', () => {
  test("its fetch still goes out, a Responses request's copy is still read, and its continuation is guarded", async () => {
    const p = page()
    const original = Reflect.apply
    const thrower = () => {
      throw new Error('replaced by the page')
    }
    p.answer(json('resp_0', [call(1)]))
    p.answer('plain')
    let sent: Promise<Response>[]
    Reflect.apply = thrower
    try {
      // Both calls made while it is replaced: the hooks' own work is synchronous up to the native fetch.
      sent = [post(p, first), p.fetch('https://app.example/other', { method: 'POST', body: '{"a":1}' })]
    } finally {
      Reflect.apply = original
    }
    expect(await Promise.all(sent.map(async (response) => (await response).text()))).toEqual([json('resp_0', [call(1)]), 'plain'])
    for (let n = 1; n <= 3; n++) {
      p.answer(json(`resp_${n}`, [call(n + 1)]))
      await (await post(p, next(`resp_${n - 1}`, n))).text()
    }
    expect(p.sent.map((body) => occurrences(body, GENTLE))).toEqual([0, 0, 0, 0, 1])
    expect(p.faults).toEqual([])
  })
})
