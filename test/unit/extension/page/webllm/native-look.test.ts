// The WebLLM hook installed: a postMessage that still looks native.
import vm from 'node:vm'
import { describe, expect, test } from 'vitest'
import { createNativeLook } from '../../../../../extension/src/page/native-look.ts'
import { installWebllmInterceptor } from '../../../../../extension/src/page/webllm/install.ts'

describe('a hook that still looks native', () => {
  test("name, length, toString and the property descriptor are the original's", () => {
    const context = vm.createContext({})
    const target = vm.runInContext('globalThis', context) as typeof globalThis
    const original = vm.runInContext('globalThis.Worker = class Worker { postMessage(message, options) {} }; Worker.prototype.postMessage', context) as () => void
    const before = Object.getOwnPropertyDescriptor(target.Worker.prototype, 'postMessage')
    expect(installWebllmInterceptor({ target, mode: () => 'guard', analysis: () => expect.fail('no analysis'), showAsNative: createNativeLook(target) })).toBe(true)
    const hooked = target.Worker.prototype.postMessage
    const toString = target.Function.prototype.toString
    expect(hooked).not.toBe(original)
    expect(hooked.name).toBe('postMessage')
    expect(hooked.length).toBe(original.length)
    expect(toString.call(hooked)).toBe(toString.call(original))
    expect(vm.runInContext('String(Worker.prototype.postMessage)', context)).toBe(toString.call(original))
    expect(Object.getOwnPropertyDescriptor(target.Worker.prototype, 'postMessage')).toEqual({ ...before, value: hooked })
  })

  test('a realm without workers, or with a postMessage that is no method, is left alone', () => {
    const bare = vm.runInContext('globalThis', vm.createContext({})) as typeof globalThis
    expect(installWebllmInterceptor({ target: bare, mode: () => 'guard', analysis: () => expect.fail('no analysis'), showAsNative: createNativeLook(bare) })).toBe(false)
    expect('Worker' in bare).toBe(false)
    const odd = vm.runInContext('globalThis.Worker = class Worker { get postMessage() { return 1 } }; globalThis', vm.createContext({})) as typeof globalThis
    expect(installWebllmInterceptor({ target: odd, mode: () => 'guard', analysis: () => expect.fail('no analysis'), showAsNative: createNativeLook(odd) })).toBe(false)
    expect(Object.getOwnPropertyDescriptor(odd.Worker.prototype, 'postMessage')!.get).toBeTypeOf('function')
  })
})
