// A page realm for the data channel hook's tests, in Node: a separate realm stands for the page,
// with stand-ins for the browser's `RTCPeerConnection` (and Chromium's `webkitRTCPeerConnection`
// alias), `RTCDataChannel` (whose native `send` records what reached it), `RTCDataChannelEvent`,
// `EventTarget` and `MessageEvent`, and the hook installed in it over the real analysis.
import vm from 'node:vm'
import { installDataChannelHooks } from '../../../../../extension/src/page/realtime/data-channel.ts'
import type { PanelEvent } from '../../../../../extension/src/protocol/events.ts'
import type { ZeroCodeMode } from '../../../../../extension/src/protocol/zero-code-mode.ts'
import { hookOptions } from './hook-options.ts'
import type { Carrier } from './realtime-run.ts'

export interface FakeChannel extends Carrier {
  /** The message listeners the channel has. */
  readonly listeners: number
}

export interface ChannelPage {
  readonly target: typeof globalThis
  readonly events: PanelEvent[]
  /** What reached the native send, call by call. */
  readonly sent: unknown[]
  /** The native `RTCDataChannel.prototype.send`, as the realm defined it. */
  readonly nativeSend: unknown
  asked: number
  mode: () => ZeroCodeMode
  /** A channel the page makes with `createDataChannel(label)`. */
  open(label: unknown): FakeChannel
  /** A channel the peer opens: the connection's `datachannel` event; `seen`: its message listeners when the page's own `datachannel` listener ran. */
  peerOpens(label: string): FakeChannel & { readonly seen: number }
}

const REALM = `
  class EventTarget {
    #listeners = new Map()
    addEventListener(type, listener) { this.#listeners.set(type, [...(this.#listeners.get(type) ?? []), listener]) }
    listenerCount(type) { return this.#listeners.get(type)?.length ?? 0 }
    dispatch(type, event) { for (const listener of this.#listeners.get(type) ?? []) listener.call(this, event) }
  }
  class MessageEvent { #data; constructor(type, init) { this.#data = init.data } get data() { return this.#data } }
  class RTCDataChannel extends EventTarget {
    #label
    constructor(label) { super(); this.#label = String(label) }
    get label() { return this.#label }
    send(data) {
      if (!(#label in this)) throw new TypeError('Illegal invocation')
      if (this.#label === 'closed') throw new Error('InvalidStateError')
      sent.push(data)
    }
  }
  class RTCDataChannelEvent { #channel; constructor(type, init) { this.#channel = init.channel } get channel() { return this.#channel } }
  class RTCPeerConnection extends EventTarget {
    constructor(configuration) {
      super()
      if (configuration === 'bad') throw new SyntaxError("Failed to construct 'RTCPeerConnection': bad configuration")
    }
    createDataChannel(label) {
      if (!(this instanceof RTCPeerConnection)) throw new TypeError('Illegal invocation')
      if (arguments.length === 0) throw new TypeError("Failed to execute 'createDataChannel' on 'RTCPeerConnection': 1 argument required, but only 0 present.")
      return new RTCDataChannel(label)
    }
  }
  Object.assign(globalThis, { EventTarget, MessageEvent, RTCDataChannel, RTCDataChannelEvent, RTCPeerConnection, webkitRTCPeerConnection: RTCPeerConnection })
  globalThis`

type RealmChannel = { send(data: unknown): void; dispatch(type: string, event: unknown): void; listenerCount(type: string): number }
type RealmPeer = RealmChannel & { createDataChannel(label: unknown): RealmChannel; addEventListener(type: string, listener: (event: unknown) => void): void }

export function channelPage(): ChannelPage {
  const context = vm.createContext({ sent: [] })
  const target = vm.runInContext(REALM, context) as typeof globalThis
  const made = (name: string, ...args: unknown[]) => new (target as unknown as Record<string, new (...args: unknown[]) => unknown>)[name]!(...args)
  const nativeSend = (target.RTCDataChannel.prototype as { send: unknown }).send
  const carrier = (channel: RealmChannel): FakeChannel => ({
    send: (data) => channel.send(data),
    hear: (data) => channel.dispatch('message', made('MessageEvent', 'message', { data })),
    get listeners() {
      return channel.listenerCount('message')
    },
  })
  const page: ChannelPage = {
    target,
    events: [],
    sent: (context as { sent: unknown[] }).sent,
    nativeSend,
    asked: 0,
    mode: () => 'guard',
    open: (label) => carrier((made('RTCPeerConnection') as RealmPeer).createDataChannel(label)),
    peerOpens(label) {
      const peer = made('RTCPeerConnection') as RealmPeer
      let seen = -1
      peer.addEventListener('datachannel', (event) => void (seen = (event as { channel: RealmChannel }).channel.listenerCount('message')))
      const channel = made('RTCDataChannel', label) as RealmChannel
      peer.dispatch('datachannel', made('RTCDataChannelEvent', 'datachannel', { channel }))
      return Object.assign(carrier(channel), { seen })
    },
  }
  installDataChannelHooks(hookOptions(target, page))
  return page
}
