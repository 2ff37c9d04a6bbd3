// A page realm for the fetch interceptor's tests, in Node: a separate realm stands for the page (so
// patching its Function.prototype.toString leaves the test runner alone), with a native fetch that
// records its calls and answers 200, or Node's own fetch.
import vm from 'node:vm'
import { RECOMMENDED_CONFIG, type GuardConfig } from '../../../../../engine/index.ts'
import { installFetchInterceptor } from './fetch-interceptor.ts'
import type { PanelEvent } from '../../../../../extension/src/protocol/events.ts'
import type { ZeroCodeMode } from '../../../../../extension/src/protocol/zero-code-mode.ts'

interface Page {
  readonly target: typeof globalThis
  readonly events: PanelEvent[]
  /** What reached the native fetch, call by call. */
  readonly calls: { self: unknown; args: unknown[] }[]
  config: GuardConfig | (() => never)
  hookSaw: boolean
  mode: ZeroCodeMode
}

/** A page realm whose native fetch records its calls and answers 200. */
export function page(nativeFetch?: typeof fetch, location?: string): Page {
  const calls: Page['calls'] = []
  const recorder = function fetch(this: unknown, ...args: unknown[]) {
    calls.push({ self: this, args })
    return Promise.resolve(new Response('ok'))
  }
  Object.defineProperty(recorder, 'length', { value: 1 })
  const context = vm.createContext({ fetch: nativeFetch ?? recorder, Request, Headers, Response, location: location ? { href: location } : undefined })
  const target = vm.runInContext('globalThis', context) as typeof globalThis
  const state: Page = {
    target,
    events: [],
    calls,
    config: RECOMMENDED_CONFIG,
    hookSaw: false,
    mode: 'guard',
  }
  installFetchInterceptor({
    target,
    config: () => (typeof state.config === 'function' ? state.config() : state.config),
    emit: (event) => state.events.push(event),
    hookSaw: () => state.hookSaw,
    mode: () => state.mode,
  })
  return state
}
