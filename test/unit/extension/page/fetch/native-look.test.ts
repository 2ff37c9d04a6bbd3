// The fetch interceptor installed: a Proxy that still looks native, in every frame at document_start.
import vm from 'node:vm'
import { describe, expect, test } from 'vitest'
import { RECOMMENDED_CONFIG } from '../../../../../engine/index.ts'
import { installFetchInterceptor } from './fetch-interceptor.ts'

describe('a Proxy that still looks native', () => {
  test("name, length, toString and the property itself are the native fetch's", () => {
    // The native fetch belongs to the page's realm, as in a browser.
    const context = vm.createContext({ Request, Headers })
    const target = vm.runInContext('globalThis', context) as typeof globalThis
    const original = vm.runInContext('globalThis.fetch = function fetch(input, init) { return Promise.resolve(input) }; fetch', context) as typeof fetch
    installFetchInterceptor({ target, config: () => RECOMMENDED_CONFIG, emit: () => {}, hookSaw: () => false, mode: () => 'guard' })
    const toString = target.Function.prototype.toString
    expect(target.fetch).not.toBe(original)
    expect(target.fetch.name).toBe('fetch')
    expect(target.fetch.length).toBe(original.length)
    expect(toString.call(target.fetch)).toBe(toString.call(original))
    expect(vm.runInContext('String(fetch)', context)).toBe(toString.call(original))
    expect(vm.runInContext('fetch.toString()', context)).toBe(toString.call(original))
    expect(toString.call(toString)).toBe('function toString() { [native code] }')
    expect(Object.getOwnPropertyDescriptor(target, 'fetch')).toMatchObject({ writable: true, enumerable: true, configurable: true })
    expect(() => toString.call({})).toThrow(/requires that 'this' be a Function/)
  })

  test('a realm without fetch is left alone; an accessor fetch is replaced by assignment', () => {
    const bare = vm.runInContext('globalThis', vm.createContext({})) as typeof globalThis
    const nothing = installFetchInterceptor({ target: bare, config: () => RECOMMENDED_CONFIG, emit: () => {}, hookSaw: () => false, mode: () => 'guard' })
    expect('fetch' in bare).toBe(false)
    expect(nothing.snapshot()).toEqual([])
    const target = vm.runInContext('globalThis', vm.createContext({ Request, Headers })) as typeof globalThis
    let current: unknown = () => Promise.resolve(new Response('x'))
    Object.defineProperty(target, 'fetch', { get: () => current, set: (v) => (current = v), configurable: true })
    installFetchInterceptor({ target, config: () => RECOMMENDED_CONFIG, emit: () => {}, hookSaw: () => false, mode: () => 'guard' })
    expect(current).toBe(target.fetch)
    expect(target.fetch.name).toBe('current')
  })
})

describe('installed at document_start, in every frame', () => {
  test('no interface is touched when installing: those a request is read with are taken by the first call, those a response body is read with by the first that may be an LLM request', async () => {
    const touched: string[] = []
    const globals: Record<string, unknown> = { fetch: () => Promise.resolve(new Response('ok')) }
    const interfaces = { Request, Headers, Response, URL, ReadableStream, ReadableStreamDefaultReader, ReadableByteStreamController, ReadableStreamBYOBRequest, TextDecoder }
    for (const [name, value] of Object.entries(interfaces)) Object.defineProperty(globals, name, { get: () => (touched.push(name), value), enumerable: true, configurable: true })
    const target = vm.runInContext('globalThis', vm.createContext(globals)) as typeof globalThis
    installFetchInterceptor({ target, config: () => RECOMMENDED_CONFIG, emit: () => undefined, hookSaw: () => false, mode: () => 'guard', streams: true })
    expect(touched).toEqual([])
    await target.fetch('https://example.test/', { method: 'GET' })
    expect(new Set(touched)).toEqual(new Set(['Request', 'Headers']))
    touched.length = 0
    await target.fetch('https://example.test/', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"messages":[]}' })
    expect(new Set(touched)).toEqual(new Set(['Headers', 'Response', 'ReadableStream', 'ReadableStreamDefaultReader', 'ReadableByteStreamController', 'ReadableStreamBYOBRequest', 'TextDecoder']))
  })
})
