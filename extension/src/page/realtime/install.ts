// Realtime sessions over WebSocket (docs/zero-code.md, "Realtime sessions"): the page's `WebSocket`
// becomes a Proxy over the native constructor (also `WebSocket.prototype.constructor`, so that
// `socket.constructor === WebSocket` holds), and `WebSocket.prototype.send` one over the native
// method; both print as the natives. A socket whose address may be a realtime session's gets one
// message listener of the guard's, added before the page can add its own, so the guard knows of
// a tool call before the page's code can answer it. Every other socket is the browser's alone: no
// listener, and its sends cost one WeakMap lookup. On a realtime socket the page's own message
// always goes first, untouched, through the native send; a reminder due after it goes out right
// after it, in the same call, so before anything else the page sends (the Agents SDK sends its
// `response.create` next, in the same turn). The origin's setting is read on every message: off
// reads nothing, observe reads and sends nothing. `WebSocket` and its `send` are those of
// document_start; what the native throws reaches the page as it threw it (native-errors.ts); the
// guard's failures never do. The members the guard reads a socket with (`addEventListener`,
// `MessageEvent`'s `data`, `URL`'s `href`, `Blob`'s `text`) are taken when first needed, not at
// document_start, as absolute-url.ts takes the URL built-ins: the first touch of those interfaces
// would cost every frame (docs/architecture.md, "Start-up and on-demand halves"). A page that
// replaced one of them by then can only change what the guard reads of its own sockets, which it
// could send itself (docs/security.md).
import { callFunction, hasInstance, weakMapGet, weakMapSet } from '../../../../engine/intrinsics.ts'
import type { RealtimeProtocol } from '../../../../engine/wire/index.ts'
import type { AgentReach } from '../../protocol/events.ts'
import { argument } from '../hook-arguments.ts'
import { asNativeThrew } from '../native-errors.ts'
import { createBinaryText } from './binary-text.ts'
import { realtimeProtocolOf } from './recognise.ts'
import { createSessionReading, prototypeMember, type RealtimeConnection } from './session-reading.ts'
import { watchedConstructor } from './watched-constructor.ts'
import type { TransportHookOptions } from '../transport-hook.ts'

type Method = (this: unknown, ...args: unknown[]) => unknown
type Listener = (event: unknown) => void

const ownDescriptor = Object.getOwnPropertyDescriptor
const defineProperty = Object.defineProperty

const REACH: Readonly<Record<RealtimeProtocol, AgentReach>> = { 'openai-realtime': 'realtime-ws', 'gemini-live': 'gemini-live' }

/** What a socket is read with, taken on first need. */
interface SocketReaders {
  readonly addListener: unknown
  readonly messageData: unknown
  readonly NativeURL: typeof URL | undefined
  readonly hrefOf: unknown
}

function socketReaders(target: typeof globalThis): SocketReaders {
  return {
    addListener: prototypeMember(target.EventTarget, 'addEventListener')?.value,
    messageData: prototypeMember(target.MessageEvent, 'data')?.get,
    NativeURL: typeof target.URL === 'function' ? target.URL : undefined,
    hrefOf: prototypeMember(target.URL, 'href')?.get,
  }
}

/** Replaces `WebSocket`; false when the page has none (or not the one the browser defines). */
export function installRealtimeHooks({ target, mode, analysis, showAsNative }: TransportHookOptions): boolean {
  const found: unknown = target.WebSocket
  if (typeof found !== 'function') return false
  const NativeWebSocket = found as new (...args: unknown[]) => object
  const prototype = NativeWebSocket.prototype as object
  const globalDescriptor = ownDescriptor(target, 'WebSocket')
  const constructorDescriptor = ownDescriptor(prototype, 'constructor')
  const sendDescriptor = ownDescriptor(prototype, 'send')
  const nativeSend: unknown = sendDescriptor?.value
  if (!globalDescriptor || !constructorDescriptor || typeof nativeSend !== 'function') return false
  const binaryText = createBinaryText(target)
  const connections = new WeakMap<object, RealtimeConnection>()
  const reading = createSessionReading(mode, analysis)
  let readers: SocketReaders | undefined
  const readersNow = (): SocketReaders => (readers ??= socketReaders(target))

  function heard(connection: RealtimeConnection, event: unknown, messageData: unknown): void {
    const data = reading.heard(connection, event, messageData)
    // Gemini Live sends its JSON in binary frames; OpenAI's binary messages are audio, never read.
    if (data !== undefined && typeof data !== 'string' && connection.protocol === 'gemini-live') binaryText(data, (text) => reading.linkOf(connection)?.received(text))
  }

  function addressOf(value: unknown): string | undefined {
    if (typeof value === 'string') return value
    const { NativeURL, hrefOf } = readersNow()
    return typeof hrefOf === 'function' && NativeURL !== undefined && hasInstance(NativeURL, value) ? (callFunction(hrefOf as () => string, value, []) as string) : undefined
  }

  /** Listens to a socket that may be a realtime session before the page can. */
  function watch(socket: object, args: readonly unknown[]): void {
    try {
      const address = addressOf(argument(args, 0))
      const protocol = address === undefined ? undefined : realtimeProtocolOf(address)
      if (protocol === undefined) return
      const connection: RealtimeConnection = { protocol, address: address!, reach: REACH[protocol], link: undefined }
      const { addListener, messageData } = readersNow()
      // Without them a socket cannot be read: it is left the page's alone.
      if (typeof addListener !== 'function' || typeof messageData !== 'function') return
      weakMapSet(connections, socket, connection)
      const listener: Listener = (event) => heard(connection, event, messageData)
      callFunction(addListener as Method, socket, ['message', listener])
    } catch {
      // Not watched: the socket is the page's alone.
    }
  }

  function sendTrap(_send: unknown, self: unknown, args: unknown[]): unknown {
    let result: unknown
    try {
      result = callFunction(nativeSend as Method, self, args)
    } catch (error) {
      throw asNativeThrew(error, args, sendTrap)
    }
    const connection = typeof self === 'object' && self !== null ? weakMapGet(connections, self) : undefined
    // After the page's own message: the reminders due, each sent as one more message.
    if (connection !== undefined) reading.after(connection, argument(args, 0), (message) => callFunction(nativeSend as Method, self, [message]))
    return result
  }

  const intercepted = watchedConstructor(NativeWebSocket, watch)
  const send = new Proxy(nativeSend as Method, { apply: sendTrap })
  defineProperty(prototype, 'send', { ...sendDescriptor, value: send })
  defineProperty(prototype, 'constructor', { ...constructorDescriptor, value: intercepted })
  defineProperty(target, 'WebSocket', { ...globalDescriptor, value: intercepted })
  showAsNative(intercepted, NativeWebSocket)
  showAsNative(send, nativeSend as object)
  return true
}
