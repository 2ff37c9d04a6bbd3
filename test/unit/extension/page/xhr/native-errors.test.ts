// The native XMLHttpRequest's own errors reach the page through the hooks, from the native call.
import { describe, expect, test } from 'vitest'
import { GENTLE } from '../../../../fixtures/wire/reminders.ts'
import { LLM_BODY } from '../support/looping-agent.ts'
import { page, post, sentBody } from './fake-xhr-page.ts'

describe("the native methods' own errors reach the page, from the native call", () => {
  const thrown = (run: () => void): unknown => {
    try {
      run()
    } catch (error) {
      return error
    }
    throw new Error('nothing thrown')
  }

  test('send or setRequestHeader before open; open with a bad method or too few arguments', () => {
    const p = page()
    const xhr = new p.XHR()
    expect(thrown(() => xhr.send(LLM_BODY))).toMatchObject({ name: 'InvalidStateError' })
    expect(thrown(() => xhr.setRequestHeader('Content-Type', 'application/json'))).toMatchObject({ name: 'InvalidStateError' })
    expect(thrown(() => xhr.open('BAD METHOD', '/v1'))).toBeInstanceOf(p.target.SyntaxError)
    expect(thrown(() => (xhr.open as (m: string) => void)('POST'))).toBeInstanceOf(p.target.TypeError)
    expect(p.sent).toEqual([])
    expect(p.asked()).toBe(0)
  })

  test('a second send of the same request: the native error, and the request is not counted twice', () => {
    const p = page()
    const xhr = post(p, '/v1', LLM_BODY)
    const events = p.events.length
    expect(thrown(() => xhr.send(LLM_BODY))).toMatchObject({ name: 'InvalidStateError' })
    expect(p.sent).toHaveLength(1)
    expect(p.events).toHaveLength(events)
  })

  test('a foreign receiver: the native TypeError', () => {
    const p = page()
    for (const name of ['open', 'setRequestHeader', 'send'] as const) expect(thrown(() => Reflect.apply(p.XHR.prototype[name], {}, ['POST', '/v1']))).toBeInstanceOf(p.target.TypeError)
    expect(p.asked()).toBe(0)
  })

  /** The frames of an error's stack, its first line (name and message) left out. */
  const framesOf = (error: unknown): string[] => ((error as Error).stack ?? '').split('\n').slice(1)

  test("with text arguments, the stack is the one the native gives without the hook: it starts at the page's call", () => {
    const p = page()
    const xhr = new p.XHR()
    function pageSendsFirst(): void {
      xhr.send(LLM_BODY)
    }
    function pageSetsAHeaderFirst(): void {
      xhr.setRequestHeader('Content-Type', 'application/json')
    }
    function pageOpensWithABadMethod(): void {
      xhr.open('BAD METHOD', '/v1')
    }
    for (const call of [pageSendsFirst, pageSetsAHeaderFirst, pageOpensWithABadMethod]) {
      const frames = framesOf(thrown(call))
      expect(frames[0]).toMatch(new RegExp(`^\\s+at ${call.name} \\(`))
      expect(frames.join('\n')).not.toContain('/extension/src/page/')
    }
  })

  test("a guarded send the native refuses: the stack starts at the page's call too", () => {
    const p = page()
    const xhr = new p.XHR()
    xhr.open('POST', '/offline', false)
    function pageSends(): void {
      xhr.send(LLM_BODY)
    }
    const frames = framesOf(thrown(pageSends))
    expect(sentBody(p).messages[8]).toEqual({ role: 'user', content: GENTLE })
    expect(frames[0]).toMatch(/^\s+at pageSends \(/)
    expect(frames.join('\n')).not.toContain('/extension/src/page/')
  })

  test("with an object among the arguments, the error is left as it was thrown: the page's own code may have thrown it", () => {
    const p = page()
    const xhr = new p.XHR()
    const frames = framesOf(thrown(() => xhr.send(new p.target.Object() as XMLHttpRequestBodyInit)))
    expect(frames.join('\n')).toContain('/extension/src/page/xhr/install.ts')
  })

  test('a guarded send that fails in the network (a synchronous XHR): the native error, the request still reported', () => {
    const p = page()
    const xhr = new p.XHR()
    xhr.open('POST', '/offline', false)
    expect(thrown(() => xhr.send(LLM_BODY))).toMatchObject({ name: 'NetworkError' })
    expect(sentBody(p).messages[8]).toEqual({ role: 'user', content: GENTLE })
    expect(p.events.at(-1)).toMatchObject({ type: 'request', rewritten: true })
  })
})
