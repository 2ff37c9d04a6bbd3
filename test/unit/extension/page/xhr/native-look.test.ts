// The XMLHttpRequest hooks installed: methods that still look native.
import vm from 'node:vm'
import { describe, expect, test } from 'vitest'
import { createNativeLook } from '../../../../../extension/src/page/native-look.ts'
import { installXhrInterceptor } from '../../../../../extension/src/page/xhr/install.ts'
import { FAKE_XHR } from './fake-xhr-page.ts'

describe('methods that still look native', () => {
  test('open, setRequestHeader and send keep their name, length, printed source and descriptors', () => {
    const context = vm.createContext({ network: () => {}, DOMException, URL })
    const target = vm.runInContext('globalThis', context) as typeof globalThis
    const XHR = vm.runInContext(`${FAKE_XHR}; globalThis.XMLHttpRequest = XMLHttpRequest`, context) as typeof XMLHttpRequest
    const names = ['open', 'setRequestHeader', 'send'] as const
    const before = Object.fromEntries(names.map((name) => [name, Object.getOwnPropertyDescriptor(XHR.prototype, name)!]))
    const others = ['abort', 'readyState'].map((name) => Object.getOwnPropertyDescriptor(XHR.prototype, name))
    expect(
      installXhrInterceptor({
        target,
        mode: () => 'guard',
        analysis: () => {
          throw new Error('not asked')
        },
        showAsNative: createNativeLook(target),
      }),
    ).toBe(true)
    const toString = target.Function.prototype.toString
    for (const name of names) {
      const original = before[name]!.value as (...args: unknown[]) => unknown
      const hooked = XHR.prototype[name] as (...args: unknown[]) => unknown
      expect(hooked).not.toBe(original)
      expect(hooked.name).toBe(name)
      expect(hooked.length).toBe(original.length)
      expect(toString.call(hooked)).toBe(toString.call(original))
      expect(vm.runInContext(`String(XMLHttpRequest.prototype.${name})`, context)).toBe(toString.call(original))
      expect({ ...Object.getOwnPropertyDescriptor(XHR.prototype, name), value: undefined }).toEqual({ ...before[name], value: undefined })
    }
    expect(['abort', 'readyState'].map((name) => Object.getOwnPropertyDescriptor(XHR.prototype, name))).toEqual(others)
  })

  test('a realm without XMLHttpRequest, or without one of its methods, is left alone', () => {
    const options = {
      mode: () => 'guard' as const,
      analysis: () => {
        throw new Error('not asked')
      },
    }
    const bare = vm.runInContext('globalThis', vm.createContext({})) as typeof globalThis
    expect(installXhrInterceptor({ target: bare, ...options, showAsNative: createNativeLook(bare) })).toBe(false)
    const context = vm.createContext({ network: () => {}, DOMException, URL })
    const target = vm.runInContext('globalThis', context) as typeof globalThis
    const XHR = vm.runInContext(`${FAKE_XHR}; delete XMLHttpRequest.prototype.send; globalThis.XMLHttpRequest = XMLHttpRequest`, context) as typeof XMLHttpRequest
    const open = XHR.prototype.open
    expect(installXhrInterceptor({ target, ...options, showAsNative: createNativeLook(target) })).toBe(false)
    expect(XHR.prototype.open).toBe(open)
  })
})
