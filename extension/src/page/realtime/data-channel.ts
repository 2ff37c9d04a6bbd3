// OpenAI Realtime over WebRTC (docs/zero-code.md, "Realtime sessions"): the session's events travel
// on the peer connection's data channel labelled `oai-events`, the same events as over a WebSocket.
// At document_start the page's `RTCPeerConnection` (and its legacy alias, and
// `RTCPeerConnection.prototype.constructor`) becomes a Proxy over the native constructor, and
// `RTCPeerConnection.prototype.createDataChannel` one over the native method; all print as the
// natives. A channel labelled `oai-events`, made by the page or opened by the peer (the connection's
// `datachannel` event, listened to from the connection's making on, so before the page can), gets
// one message listener of the guard's before the page can add its own; the first such channel of the
// frame also has `RTCDataChannel.prototype.send` hooked, taken from that channel's prototype. A
// channel of another label is the browser's alone: no listener, nothing hooked for it, and the
// on-demand half never starts for it. On an `oai-events` channel the page's own message goes first,
// untouched, through the native send, and a reminder due after it goes out right after it, in the
// same call (install.ts says why). What the guard reads a channel with (`addEventListener`, the
// channel's `label` and `send`, `MessageEvent`'s `data`, `RTCDataChannelEvent`'s `channel`) is taken
// when first needed, not at document_start, so that a frame that never makes such a channel pays
// nothing for those interfaces; a page that replaced one by then only changes what the guard reads
// of, or sends on, its own sessions (docs/security.md).
import { callFunction, getPrototypeOf, weakMapGet, weakMapSet } from '../../../../engine/intrinsics.ts'
import { argument } from '../hook-arguments.ts'
import { asNativeThrew } from '../native-errors.ts'
import { createSessionReading, prototypeMember, type RealtimeConnection } from './session-reading.ts'
import { watchedConstructor } from './watched-constructor.ts'
import type { TransportHookOptions } from '../transport-hook.ts'

/** The label the OpenAI Realtime WebRTC transport gives its events' channel. */
const EVENTS_LABEL = 'oai-events'
/** The names the page's global object may hold the constructor under (Chromium keeps the prefixed alias). */
const GLOBAL_NAMES = ['RTCPeerConnection', 'webkitRTCPeerConnection'] as const

type Method = (this: unknown, ...args: unknown[]) => unknown
type Listener = (event: unknown) => void

const ownDescriptor = Object.getOwnPropertyDescriptor
const defineProperty = Object.defineProperty
// Captured at document_start: `send` is hooked at the first `oai-events` channel, by then the page's.
const NativeProxy = Proxy

/** What a connection and a channel are read with, taken on first need. */
interface ChannelReaders {
  readonly addListener: unknown
  readonly messageData: unknown
  readonly channelOf: unknown
}

function channelReaders(target: typeof globalThis): ChannelReaders {
  return {
    addListener: prototypeMember(target.EventTarget, 'addEventListener')?.value,
    messageData: prototypeMember(target.MessageEvent, 'data')?.get,
    channelOf: prototypeMember((target as { readonly RTCDataChannelEvent?: unknown }).RTCDataChannelEvent, 'channel')?.get,
  }
}

/** Replaces `RTCPeerConnection`; false when the page has none (or not the one the browser defines). */
export function installDataChannelHooks({ target, mode, analysis, showAsNative }: TransportHookOptions): boolean {
  const found: unknown = (target as { readonly RTCPeerConnection?: unknown }).RTCPeerConnection
  if (typeof found !== 'function') return false
  const NativePeer = found as new (...args: unknown[]) => object
  const prototype = NativePeer.prototype as object
  const constructorDescriptor = ownDescriptor(prototype, 'constructor')
  const createDescriptor = ownDescriptor(prototype, 'createDataChannel')
  const nativeCreate: unknown = createDescriptor?.value
  const globals = GLOBAL_NAMES.flatMap((name) => {
    const descriptor = ownDescriptor(target, name)
    return descriptor?.value === NativePeer ? [{ name, descriptor }] : []
  })
  if (globals.length === 0 || !constructorDescriptor || typeof nativeCreate !== 'function') return false
  const channels = new WeakMap<object, RealtimeConnection>()
  const reading = createSessionReading(mode, analysis)
  let readers: ChannelReaders | undefined
  const readersNow = (): ChannelReaders => (readers ??= channelReaders(target))
  let labelGetter: unknown
  /** The native `send`, once the first `oai-events` channel hooked it. */
  let nativeSend: Method | undefined

  function sendTrap(_send: unknown, self: unknown, args: unknown[]): unknown {
    const send = nativeSend!
    let result: unknown
    try {
      result = callFunction(send, self, args)
    } catch (error) {
      throw asNativeThrew(error, args, sendTrap)
    }
    const connection = typeof self === 'object' && self !== null ? weakMapGet(channels, self) : undefined
    // After the page's own message: the reminders due, each sent as one more message.
    if (connection !== undefined) reading.after(connection, argument(args, 0), (message) => callFunction(send, self, [message]))
    return result
  }

  /** `channel`'s label, read with the getter of the first channel's prototype. */
  function labelOf(channel: object): unknown {
    labelGetter ??= ownDescriptor(getPrototypeOf(channel) as object, 'label')?.get
    return typeof labelGetter === 'function' ? callFunction(labelGetter as () => unknown, channel, []) : undefined
  }

  /** Whether `send` is hooked; the first `oai-events` channel hooks it on its prototype. */
  function sendHooked(channel: object): boolean {
    if (nativeSend === undefined) {
      const channelPrototype = getPrototypeOf(channel) as object
      const sendDescriptor = ownDescriptor(channelPrototype, 'send')
      const found: unknown = sendDescriptor?.value
      if (typeof found !== 'function') return false
      nativeSend = found as Method
      const send = new NativeProxy(nativeSend, { apply: sendTrap })
      defineProperty(channelPrototype, 'send', { ...sendDescriptor, value: send })
      showAsNative(send, nativeSend)
    }
    return true
  }

  /** Listens to a channel labelled `oai-events` before the page can; any other is left alone. */
  function watch(channel: unknown): void {
    try {
      if (typeof channel !== 'object' || channel === null || weakMapGet(channels, channel) !== undefined) return
      const { addListener, messageData } = readersNow()
      // Without them a channel cannot be read: it is left the page's alone.
      if (typeof addListener !== 'function' || typeof messageData !== 'function') return
      if (labelOf(channel) !== EVENTS_LABEL || !sendHooked(channel)) return
      const connection: RealtimeConnection = { protocol: 'openai-realtime', address: EVENTS_LABEL, reach: 'realtime-webrtc', link: undefined }
      weakMapSet(channels, channel, connection)
      const listener: Listener = (event) => void reading.heard(connection, event, messageData)
      callFunction(addListener as Method, channel, ['message', listener])
    } catch {
      // Not watched: the channel is the page's alone.
    }
  }

  /** A channel the peer opens reaches the page in the connection's `datachannel` event: the guard's listener hears it first. */
  function listenForPeerChannels(peer: object): void {
    try {
      const { addListener, channelOf } = readersNow()
      if (typeof addListener !== 'function' || typeof channelOf !== 'function') return
      const listener: Listener = (event) => {
        let channel: unknown
        try {
          channel = callFunction(channelOf as () => unknown, event, [])
        } catch {
          return
        }
        watch(channel)
      }
      callFunction(addListener as Method, peer, ['datachannel', listener])
    } catch {
      // Not listened to: the peer's channels are the page's alone.
    }
  }

  function createTrap(_create: unknown, self: unknown, args: unknown[]): unknown {
    let channel: unknown
    try {
      channel = callFunction(nativeCreate as Method, self, args)
    } catch (error) {
      throw asNativeThrew(error, args, createTrap)
    }
    watch(channel)
    return channel
  }

  const intercepted = watchedConstructor(NativePeer, listenForPeerChannels)
  const create = new Proxy(nativeCreate as Method, { apply: createTrap })
  defineProperty(prototype, 'createDataChannel', { ...createDescriptor, value: create })
  defineProperty(prototype, 'constructor', { ...constructorDescriptor, value: intercepted })
  for (const { name, descriptor } of globals) defineProperty(target, name, { ...descriptor, value: intercepted })
  showAsNative(intercepted, NativePeer)
  showAsNative(create, nativeCreate as object)
  return true
}
