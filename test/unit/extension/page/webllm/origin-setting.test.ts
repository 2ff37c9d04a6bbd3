// The WebLLM hook under each per-origin setting.
import { describe, expect, test } from 'vitest'
import { chatMessage, chatRequest, page, post } from './worker-page.ts'

describe("the origin's setting", () => {
  test('observe: the very same message goes out; the events say where the reminder would go', () => {
    const p = page()
    p.mode = () => 'observe'
    const message = chatMessage(chatRequest(3))
    expect(post(p, message)[0]).toBe(message)
    expect(p.events[4]).toMatchObject({ type: 'reminder', placement: 'messages[8]', withheld: 'observe' })
    expect(p.events[5]).toMatchObject({ type: 'request', remindersInserted: 1, rewritten: false, withheld: 'observe' })
  })

  test('off: not looked at, nothing started; back to guard, the next request is guarded', () => {
    const p = page()
    p.mode = () => 'off'
    const message = chatMessage(chatRequest(3))
    expect(post(p, message)[0]).toBe(message)
    expect(p.asked).toBe(0)
    expect(p.events).toEqual([])
    p.mode = () => 'guard'
    expect(post(p, chatMessage(chatRequest(3)))[0]).not.toBe(message)
    expect(p.events.at(-1)).toMatchObject({ type: 'request', rewritten: true })
  })
})
