// A page realm for the XMLHttpRequest hooks' tests, in Node: a separate realm stands for the page (so
// patching its Function.prototype.toString leaves the test runner alone), with a fake XMLHttpRequest
// of that realm as the native one. The fake keeps the native rules the hooks rely on (open before
// setRequestHeader and send, one send per open, illegal invocation on a foreign receiver) and
// records every send as the network would get it.
import vm from 'node:vm'
import { expect } from 'vitest'
import { RECOMMENDED_CONFIG, type GuardConfig } from '../../../../../engine/index.ts'
import { createNativeLook } from '../../../../../extension/src/page/native-look.ts'
import { createWireAnalysis, type WireAnalysis } from '../../../../../extension/src/page/wire/analysis.ts'
import { installXhrInterceptor } from '../../../../../extension/src/page/xhr/install.ts'
import type { PanelEvent } from '../../../../../extension/src/protocol/events.ts'
import type { ZeroCodeMode } from '../../../../../extension/src/protocol/zero-code-mode.ts'

/** What reached the fake network: one entry per native send that went through. */
interface Sent {
  readonly self: unknown
  readonly args: unknown[]
  readonly method: string
  readonly url: string
  readonly headers: [string, string][]
  /** Panel events already reported when the native send ran. */
  readonly eventsBefore: number
}

export const FAKE_XHR = `
  class XMLHttpRequest {
    #opened = false
    #sent = false
    #method = ''
    #url = ''
    #headers = []
    open(method, url) {
      if (arguments.length < 2) throw new TypeError("Failed to execute 'open' on 'XMLHttpRequest': 2 arguments required")
      if (!/^[A-Za-z-]+$/.test(String(method))) throw new SyntaxError("'" + method + "' is not a valid HTTP method.")
      this.#opened = true
      this.#sent = false
      this.#method = String(method)
      this.#url = String(url)
      this.#headers = []
    }
    setRequestHeader(name, value) {
      if (!this.#opened || this.#sent) throw new DOMException("The object's state must be OPENED.", 'InvalidStateError')
      this.#headers.push([String(name), String(value)])
    }
    send(body) {
      if (!this.#opened || this.#sent) throw new DOMException("The object's state must be OPENED.", 'InvalidStateError')
      this.#sent = true
      network(this, [...arguments], this.#method, this.#url, this.#headers)
      if (this.#url.endsWith('/offline')) throw new DOMException('Failed to load', 'NetworkError')
      return undefined
    }
    abort() {}
    get readyState() { return this.#opened ? 1 : 0 }
  }
  XMLHttpRequest
`

interface Page {
  readonly target: typeof globalThis
  readonly XHR: typeof XMLHttpRequest
  readonly events: PanelEvent[]
  readonly sent: Sent[]
  /** How many times the analysis was asked for (the on-demand half is built by the first). */
  readonly asked: () => number
  config: GuardConfig | (() => never)
  mode: ZeroCodeMode | (() => never)
  hookSaw: boolean
}

interface PageOptions {
  readonly location?: string
  /** Stands for the analysis instead of the real one. */
  readonly analysis?: () => WireAnalysis
}

/** A page realm with the fake XHR hooked as the page script hooks the real one. */
export function page({ location, analysis: stand }: PageOptions = {}): Page {
  const sent: Sent[] = []
  const events: PanelEvent[] = []
  const network = (self: unknown, args: unknown[], method: string, url: string, headers: [string, string][]) =>
    sent.push({ self, args, method, url, headers: [...headers], eventsBefore: events.length })
  const context = vm.createContext({ network, URL, DOMException, location: location ? { href: location } : undefined })
  const target = vm.runInContext('globalThis', context) as typeof globalThis
  const XHR = vm.runInContext(FAKE_XHR, context) as typeof XMLHttpRequest
  Object.defineProperty(target, 'XMLHttpRequest', { value: XHR, writable: true, enumerable: false, configurable: true })
  let asked = 0
  let analysis: WireAnalysis | undefined
  const state: Page = {
    target,
    XHR,
    events,
    sent,
    asked: () => asked,
    config: RECOMMENDED_CONFIG,
    mode: 'guard',
    hookSaw: false,
  }
  const read = <T>(value: T | (() => never)): T => (typeof value === 'function' ? (value as () => never)() : value)
  const installed = installXhrInterceptor({
    target,
    mode: () => read(state.mode),
    showAsNative: createNativeLook(target),
    analysis: () => {
      asked++
      if (stand) return stand()
      return (analysis ??= createWireAnalysis({ config: () => read(state.config), emit: (e) => events.push(e), hookSaw: () => state.hookSaw, now: () => 1 }))
    },
  })
  expect(installed).toBe(true)
  return state
}

/** open, headers, send: the way axios drives an XHR. */
export function post(p: Page, url: string, body: unknown, headers: Record<string, string> = { 'Content-Type': 'application/json' }): XMLHttpRequest {
  const xhr = new p.XHR()
  xhr.open('POST', url, true)
  for (const [name, value] of Object.entries(headers)) xhr.setRequestHeader(name, value)
  xhr.send(body as XMLHttpRequestBodyInit)
  return xhr
}

export const sentBody = (p: Page, n = 0) => JSON.parse(p.sent[n]!.args[0] as string)
