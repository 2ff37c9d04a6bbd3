// A page realm for the tests of a reading handed to a later task (later-reading.ts), in Node: this
// realm's Response and streams, and a MessageChannel shaped as a browser's (its ports' members on
// the prototypes), whose messages are delivered in a later task, as Chrome's are.
import vm from 'node:vm'
import { STREAMS } from './page-streams.ts'

/** A MessageChannel and MessagePort as the browser has them; `delivered()` settles after the next message is handled. */
export function browserChannel() {
  const waiting: (() => void)[] = []
  const listeners = new WeakMap<object, (event: { data: unknown }) => void>()
  const others = new WeakMap<object, object>()
  class MessagePort {
    postMessage(data: unknown): void {
      const to = others.get(this)!
      setImmediate(() => {
        listeners.get(to)?.({ data })
        for (const done of waiting.splice(0)) done()
      })
    }
    get onmessage(): ((event: { data: unknown }) => void) | undefined {
      return listeners.get(this)
    }
    set onmessage(listener: (event: { data: unknown }) => void) {
      listeners.set(this, listener)
    }
  }
  const ports = new WeakMap<object, readonly [MessagePort, MessagePort]>()
  class MessageChannel {
    constructor() {
      const pair = [new MessagePort(), new MessagePort()] as const
      others.set(pair[0], pair[1]).set(pair[1], pair[0])
      ports.set(this, pair)
    }
    get port1() {
      return ports.get(this)![0]
    }
    get port2() {
      return ports.get(this)![1]
    }
  }
  return { MessageChannel, MessagePort, delivered: () => new Promise<void>((done) => void waiting.push(done)) }
}

/** A page realm with the browser's streams, a browser-shaped MessageChannel and `globals`. */
export function channelRealm(globals: Record<string, unknown> = {}) {
  const channel = browserChannel()
  const context = vm.createContext({ ...STREAMS, MessageChannel: channel.MessageChannel, MessagePort: channel.MessagePort, ...globals })
  return { target: vm.runInContext('globalThis', context) as typeof globalThis, delivered: channel.delivered }
}
