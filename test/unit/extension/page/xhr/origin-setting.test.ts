// The XMLHttpRequest hooks under each per-origin setting.
import { describe, expect, test } from 'vitest'
import { GENTLE } from '../../../../fixtures/wire/reminders.ts'
import { LLM_BODY } from '../support/looping-agent.ts'
import { page, post, sentBody } from './fake-xhr-page.ts'

describe("the origin's setting", () => {
  test('observe: the very same body goes out; the events say where the reminder would go', () => {
    const p = page()
    p.mode = 'observe'
    post(p, '/v1', LLM_BODY)
    expect(p.sent[0]!.args[0]).toBe(LLM_BODY)
    expect(p.events.map((e) => e.type)).toEqual(['agent', 'call', 'call', 'call', 'reminder', 'request'])
    expect(p.events[4]).toMatchObject({ type: 'reminder', placement: 'messages[8]', withheld: 'observe' })
    expect(p.events[5]).toMatchObject({ type: 'request', rewritten: false, withheld: 'observe' })
  })

  test('off: not analysed at all; switched to guard, the next request gets the reminder', () => {
    const p = page()
    p.mode = 'off'
    const xhr = post(p, '/v1', LLM_BODY)
    expect(p.sent[0]!.args[0]).toBe(LLM_BODY)
    expect(p.asked()).toBe(0)
    // The request taken while off is not analysed by a later send of it (the native one throws).
    p.mode = 'guard'
    expect(() => xhr.send(LLM_BODY)).toThrow()
    expect(p.asked()).toBe(0)
    post(p, '/v1', LLM_BODY)
    expect(sentBody(p, 1).messages[8]).toEqual({ role: 'user', content: GENTLE })
  })
})
