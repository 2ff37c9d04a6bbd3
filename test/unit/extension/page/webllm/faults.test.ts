// A failure inside the WebLLM hook posts the page's message and reports a fault.
import vm from 'node:vm'
import { describe, expect, test } from 'vitest'
import { createNativeLook } from '../../../../../extension/src/page/native-look.ts'
import { installWebllmInterceptor } from '../../../../../extension/src/page/webllm/install.ts'
import { chatMessage, chatRequest, type Page, page, post } from './worker-page.ts'

describe("a failure inside the hook posts the page's message and reports a fault", () => {
  const faultOnly = (p: Page, message: string) => expect(p.events).toEqual([{ type: 'fault', at: expect.any(Number), message: `webllm interceptor: the request went out unchanged: ${message}` }])

  test('a setting that cannot be read', () => {
    const p = page()
    p.mode = () => {
      throw new Error('no setting')
    }
    const message = chatMessage(chatRequest(3))
    expect(post(p, message)[0]).toBe(message)
    faultOnly(p, 'no setting')
  })

  test('a config that cannot be read', () => {
    const p = page()
    p.config = () => {
      throw new Error('no config')
    }
    const message = chatMessage(chatRequest(3))
    expect(post(p, message)[0]).toBe(message)
    faultOnly(p, 'no config')
  })

  test('a request JSON cannot write (a BigInt)', () => {
    const p = page()
    const message = chatMessage({ ...chatRequest(3), seed: 1n })
    expect(post(p, message)[0]).toBe(message)
    expect(p.events).toMatchObject([{ type: 'fault', message: expect.stringContaining('BigInt') }])
  })

  test('an analysis that cannot even start', () => {
    const context = vm.createContext({ posted: [] as unknown[] })
    const target = vm.runInContext('globalThis.Worker = class Worker { postMessage(m) { posted.push(m) } }; globalThis', context) as typeof globalThis
    installWebllmInterceptor({
      target,
      mode: () => 'guard',
      showAsNative: createNativeLook(target),
      analysis: () => {
        throw new Error('no half')
      },
    })
    const message = chatMessage(chatRequest(3))
    new target.Worker('/w.js').postMessage(message)
    expect((target as unknown as { posted: unknown[] }).posted).toEqual([message])
    expect((target as unknown as { posted: unknown[] }).posted[0]).toBe(message)
  })
})
