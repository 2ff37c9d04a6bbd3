// The XMLHttpRequest hooks on a page that replaces built-ins after they are installed.
import { describe, expect, test } from 'vitest'
import { GENTLE } from '../../../../fixtures/wire/reminders.ts'
import { LLM_BODY } from '../support/looping-agent.ts'
import { page, post, sentBody } from './fake-xhr-page.ts'

describe('a page that replaces built-ins after the hooks are installed', () => {
  test("WeakMap's methods and Reflect.apply: still guarded, neither called", () => {
    const p = page({ location: 'https://app.example/' })
    const called: string[] = []
    const replace = (owner: Record<string, unknown>, key: string) => {
      Object.defineProperty(owner, key, {
        value: () => {
          called.push(key)
          throw new Error(`${key} replaced by the page`)
        },
        configurable: true,
        writable: true,
      })
    }
    const { WeakMap: W, Reflect: R } = p.target
    for (const key of ['get', 'set', 'delete', 'has']) replace(W.prototype as unknown as Record<string, unknown>, key)
    replace(R as unknown as Record<string, unknown>, 'apply')
    post(p, '/v1', LLM_BODY)
    expect(sentBody(p).messages[8]).toEqual({ role: 'user', content: GENTLE })
    expect(called).toEqual([])
    expect(p.events.at(-1)).toMatchObject({ type: 'request', url: 'https://app.example/v1', rewritten: true })
  })
})
