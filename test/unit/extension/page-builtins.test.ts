// @vitest-environment happy-dom
// The page script's captured built-ins: what its message listener throws never reaches the page.
import { describe, expect, it } from 'vitest'
import { captureBuiltins } from '../../../extension/src/page/builtins.ts'

const deliver = (data: unknown) => window.dispatchEvent(new MessageEvent('message', { data, source: window }))

describe('the captured message listener', () => {
  it('hands what the listener throws to onError, and nothing to the page', () => {
    const builtins = captureBuiltins(window)
    const pageErrors: unknown[] = []
    window.addEventListener('error', (event) => void pageErrors.push(event.error))
    const handled: unknown[] = []
    const seen: unknown[] = []
    builtins.onMessage(
      (source, data) => {
        seen.push([source === window, data])
        if (data === 'break') throw new Error('listener broke')
      },
      (error) => void handled.push((error as Error).message),
    )
    // An onError that throws too: swallowed, the page still sees nothing.
    builtins.onMessage(
      () => {
        throw new Error('again')
      },
      () => {
        throw new Error('and the report')
      },
    )
    expect(() => deliver('fine')).not.toThrow()
    expect(() => deliver('break')).not.toThrow()
    expect(seen).toEqual([[true, 'fine'], [true, 'break']])
    expect(handled).toEqual(['listener broke'])
    expect(pageErrors).toEqual([])
  })

  it("reads MessageEvent's accessors by the first message, not at document_start, and then keeps them", () => {
    // Accessors on the prototype, as browsers have them (happy-dom keeps own fields).
    class NativeMessageEvent {
      readonly #data: unknown
      constructor(data: unknown) {
        this.#data = data
      }
      get data(): unknown {
        return this.#data
      }
      get source(): unknown {
        return window
      }
    }
    let touches = 0
    const listeners: ((event: unknown) => void)[] = []
    const frame = {
      postMessage: () => undefined,
      addEventListener: (_type: string, listener: (event: unknown) => void) => void listeners.push(listener),
      get MessageEvent() {
        touches++
        return NativeMessageEvent
      },
      Date,
      queueMicrotask,
      setTimeout,
    }
    const builtins = captureBuiltins(frame as unknown as Window & typeof globalThis)
    const seen: unknown[] = []
    builtins.onMessage((source, data) => void seen.push([source === window, data]), () => undefined)
    expect(touches).toBe(0)
    listeners[0]!(new NativeMessageEvent('first'))
    // A page that replaces the accessor after the first message changes nothing.
    Object.defineProperty(NativeMessageEvent.prototype, 'data', { get: () => 'forged' })
    listeners[0]!(new NativeMessageEvent('second'))
    expect(touches).toBe(1)
    expect(seen).toEqual([[true, 'first'], [true, 'second']])
  })

  it('reads every message all the same when the page replaced `Object.getOwnPropertyDescriptor` or `MessageEvent` before the first', () => {
    const listeners: ((event: MessageEvent) => void)[] = []
    const frame = { postMessage: () => undefined, addEventListener: (_type: string, listener: (event: MessageEvent) => void) => void listeners.push(listener), MessageEvent: window.MessageEvent as unknown, Date, queueMicrotask, setTimeout }
    const builtins = captureBuiltins(frame as unknown as Window & typeof globalThis)
    const seen: unknown[] = []
    const faults: unknown[] = []
    builtins.onMessage((source, data) => void seen.push([source === window, data]), (error) => void faults.push(error))
    const { getOwnPropertyDescriptor } = Object
    Object.getOwnPropertyDescriptor = () => {
      throw new Error('replaced by the page')
    }
    frame.MessageEvent = new Proxy(function MessageEvent() {}, {
      get: () => {
        throw new Error('a stand-in')
      },
    })
    try {
      listeners[0]!(new MessageEvent('message', { data: 'first', source: window }))
      listeners[0]!(new MessageEvent('message', { data: 'second', source: window }))
    } finally {
      Object.getOwnPropertyDescriptor = getOwnPropertyDescriptor
    }
    expect(faults).toEqual([])
    expect(seen).toEqual([[true, 'first'], [true, 'second']])
  })
})
