// A failure inside the XMLHttpRequest hooks sends the request as it came and reports a fault.
import vm from 'node:vm'
import { describe, expect, test } from 'vitest'
import { createNativeLook } from '../../../../../extension/src/page/native-look.ts'
import { installXhrInterceptor } from '../../../../../extension/src/page/xhr/install.ts'
import { LLM_BODY } from '../support/looping-agent.ts'
import { page, post } from './fake-xhr-page.ts'

describe('a failure inside the hooks sends the request as it came and reports a fault', () => {
  test('a setting that cannot be read', () => {
    const p = page()
    p.mode = () => {
      throw new Error('no setting')
    }
    post(p, '/v1', LLM_BODY)
    expect(p.sent[0]!.args[0]).toBe(LLM_BODY)
    expect(p.events).toEqual([{ type: 'fault', at: 1, message: 'xhr interceptor: the request went out unchanged: no setting' }])
  })

  test('a config that cannot be read', () => {
    const p = page()
    p.config = () => {
      throw new Error('no config')
    }
    post(p, '/v1', LLM_BODY)
    expect(p.sent[0]!.args[0]).toBe(LLM_BODY)
    expect(p.events).toEqual([{ type: 'fault', at: 1, message: 'xhr interceptor: the request went out unchanged: no config' }])
  })

  test('an analysis that cannot be built, nor report its failure: the request as it came, nothing thrown', () => {
    const p = page({
      analysis: () => {
        throw new Error('no on-demand half')
      },
    })
    post(p, '/v1', LLM_BODY)
    expect(p.sent[0]!.args[0]).toBe(LLM_BODY)
    expect(p.asked()).toBe(2)
  })

  test('a report that throws after the send: the native result still reaches the page', () => {
    const p = page({
      analysis: () => ({
        plan: (args) => ({
          args,
          after: () => {
            throw new Error('pipeline down')
          },
        }),
        failed: (args) => ({ args, after: () => undefined }),
        snapshot: () => [],
        openStream: () => undefined,
        openRealtime: () => ({ received: () => undefined, sent: () => [] }),
      }),
    })
    const xhr = new p.XHR()
    xhr.open('POST', '/v1')
    expect(xhr.send(LLM_BODY)).toBeUndefined()
    expect(p.sent).toHaveLength(1)
  })

  test('a native open that accepts any receiver: nothing noted, nothing thrown', () => {
    const p = page()
    const open = vm.runInContext('(function open(method, url) {})', vm.createContext({})) as XMLHttpRequest['open']
    const descriptor = Object.getOwnPropertyDescriptor(p.XHR.prototype, 'open')!
    Object.defineProperty(p.XHR.prototype, 'open', { ...descriptor, value: open })
    const target = p.target
    // Hooked again over that open: the hook's notes on a primitive receiver cannot be kept.
    installXhrInterceptor({
      target,
      mode: () => 'guard',
      analysis: () => {
        throw new Error('not asked')
      },
      showAsNative: createNativeLook(target),
    })
    expect(Reflect.apply(p.XHR.prototype.open, undefined, ['POST', '/v1'])).toBeUndefined()
  })
})
