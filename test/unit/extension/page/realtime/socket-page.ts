// A page realm for the realtime hook's tests, in Node: a separate realm stands for the page, with
// stand-ins for the browser's `WebSocket` (whose native `send` records what reached it),
// `EventTarget`, `MessageEvent` and `URL`, and the hook installed in it over the real analysis.
import vm from 'node:vm'
import { installRealtimeHooks } from '../../../../../extension/src/page/realtime/install.ts'
import type { PanelEvent } from '../../../../../extension/src/protocol/events.ts'
import type { ZeroCodeMode } from '../../../../../extension/src/protocol/zero-code-mode.ts'
import { hookOptions } from './hook-options.ts'

export interface FakeSocket {
  send(data: unknown): void
  /** The server sends `data`: every message listener hears it, in the order they were added. */
  hear(data: unknown): void
  readonly listeners: number
}

export interface SocketPage {
  readonly target: typeof globalThis
  readonly events: PanelEvent[]
  /** What reached the native send, call by call, as text. */
  readonly sent: unknown[]
  asked: number
  mode: () => ZeroCodeMode
  open(url: unknown): FakeSocket
}

const REALM = `
  class EventTarget {
    #listeners = []
    addEventListener(type, listener) { if (type === 'message') this.#listeners.push(listener) }
    get listenerCount() { return this.#listeners.length }
    dispatch(event) { for (const listener of this.#listeners) listener.call(this, event) }
  }
  class MessageEvent { #data; constructor(type, init) { this.#data = init.data } get data() { return this.#data } }
  class URL { #href; constructor(href) { this.#href = href } get href() { return this.#href } }
  class WebSocket extends EventTarget {
    constructor(url, protocols) {
      super()
      if (url === 'not an address') throw new SyntaxError("Failed to construct 'WebSocket': The URL 'not an address' is invalid.")
      this.url = String(url)
    }
    send(data) {
      if (!(this instanceof WebSocket)) throw new TypeError('Illegal invocation')
      if (this.url.endsWith('closed')) throw new Error('InvalidStateError')
      sent.push(data)
    }
  }
  Object.assign(globalThis, { EventTarget, MessageEvent, URL, WebSocket })
  globalThis`

export function socketPage(): SocketPage {
  const context = vm.createContext({ sent: [] })
  const target = vm.runInContext(REALM, context) as typeof globalThis
  const page: SocketPage = {
    target,
    events: [],
    sent: (context as { sent: unknown[] }).sent,
    asked: 0,
    mode: () => 'guard',
    open(url) {
      const socket = new target.WebSocket(url as string) as unknown as { send(data: unknown): void; dispatch(event: unknown): void; listenerCount: number }
      return {
        send: (data) => socket.send(data),
        hear: (data) => socket.dispatch(new target.MessageEvent('message', { data })),
        get listeners() {
          return socket.listenerCount
        },
      }
    },
  }
  installRealtimeHooks(hookOptions(target, page))
  return page
}
