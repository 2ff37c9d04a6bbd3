// The built-ins a response's body is passed through with (pass-through.ts, page-response.ts),
// captured by the frame's first request that may be an LLM request (fetch/install.ts): from then
// on, a page that replaces a method of `Response`, `Headers`, `ReadableStream`, its reader or
// controller, `TextDecoder`, `Uint8Array`, or the `MessageChannel` the reading is handed on with
// (later-reading.ts) neither breaks the reading nor chooses what the guard reads. Taken
// at document_start they would cost every frame the first touch of seven interfaces (about 0.2 ms
// of script time); a page that replaced one before its first such request only changes what its
// own responses are read with (docs/security.md).
import { arrayPush, objectKeys } from '../../../../engine/intrinsics.ts'

type Getter<T> = (this: unknown) => T
type Method = (this: unknown, ...args: unknown[]) => unknown

/** The body-reading members of `Response.prototype` a page can call, each as the browser has it. */
export interface ResponseMembers {
  readonly body: Getter<ReadableStream<Uint8Array> | null>
  readonly bodyUsed: Getter<boolean>
  readonly clone: Method
  /** `text`, `json`, `arrayBuffer`, `blob`, `formData` and `bytes`, those this browser has. */
  readonly readers: readonly (readonly [string, Method])[]
}

export interface BodyNatives {
  readonly then: typeof Promise.prototype.then
  readonly defineProperty: typeof Object.defineProperty
  readonly NativeProxy: ProxyConstructor
  readonly NativeResponse: typeof Response
  readonly response: ResponseMembers
  readonly headersOf: Getter<Headers>
  readonly headersGet: typeof Headers.prototype.get
  readonly NativeReadableStream: typeof ReadableStream
  readonly getReader: typeof ReadableStream.prototype.getReader
  readonly streamCancel: typeof ReadableStream.prototype.cancel
  readonly locked: Getter<boolean>
  readonly read: typeof ReadableStreamDefaultReader.prototype.read
  readonly readerCancel: typeof ReadableStreamDefaultReader.prototype.cancel
  readonly enqueue: typeof ReadableByteStreamController.prototype.enqueue
  readonly close: typeof ReadableByteStreamController.prototype.close
  readonly error: typeof ReadableByteStreamController.prototype.error
  readonly byobRequest: Getter<ReadableStreamBYOBRequest | null>
  readonly respond: typeof ReadableStreamBYOBRequest.prototype.respond
  readonly byteLength: Getter<number>
  readonly byteOffset: Getter<number>
  readonly buffer: Getter<ArrayBufferLike>
  /** Views on part of a chunk are made with it: `subarray` would look up the page's `Symbol.species`. */
  readonly NativeUint8Array: Uint8ArrayConstructor
  /** `TypedArray.prototype.set`: the chunks' copies are written with it (chunk-copies.ts). */
  readonly setBytes: (this: unknown, source: ArrayLike<number>, offset?: number) => void
  readonly Decoder: typeof TextDecoder
  readonly decode: typeof TextDecoder.prototype.decode
  /** What a watched body's reading is handed to a later task with (later-reading.ts); null in a realm without it. */
  readonly channel: ChannelNatives | null
}

/** A MessageChannel's members, as the browser has them. */
export interface ChannelNatives {
  readonly NativeMessageChannel: typeof MessageChannel
  readonly port1: Getter<MessagePort>
  readonly port2: Getter<MessagePort>
  readonly postMessage: Method
  readonly setOnmessage: (this: unknown, listener: unknown) => void
}

const READERS = ['text', 'json', 'arrayBuffer', 'blob', 'formData', 'bytes'] as const

const { getOwnPropertyDescriptor, getPrototypeOf } = Object

/** Null when the realm lacks one of them (a bare script context, an old browser): nothing is then passed through. Never throws. */
export function captureBodyNatives(target: typeof globalThis): BodyNatives | null {
  try {
    const getter = <T>(prototype: object, key: string) => getOwnPropertyDescriptor(prototype, key)?.get as Getter<T> | undefined
    const method = (prototype: object, key: string) => {
      const value: unknown = getOwnPropertyDescriptor(prototype, key)?.value
      return typeof value === 'function' ? (value as Method) : undefined
    }
    const response = target.Response.prototype
    const stream = target.ReadableStream.prototype
    const reader = target.ReadableStreamDefaultReader.prototype
    const controller = target.ReadableByteStreamController.prototype
    const request = target.ReadableStreamBYOBRequest.prototype
    const headers = target.Headers.prototype
    const typedArray = getPrototypeOf(target.Uint8Array.prototype) as object
    const readers: (readonly [string, Method])[] = []
    // Plain loops and the captured built-ins only: this runs once page scripts have (fetch/install.ts).
    for (let i = 0; i < READERS.length; i++) {
      const found = method(response, READERS[i]!)
      if (found) arrayPush(readers, [READERS[i]!, found] as const)
    }
    const natives = {
      then: target.Promise.prototype.then,
      defineProperty: target.Object.defineProperty,
      NativeProxy: target.Proxy,
      NativeResponse: target.Response,
      response: { body: getter(response, 'body'), bodyUsed: getter(response, 'bodyUsed'), clone: method(response, 'clone'), readers },
      headersOf: getter(response, 'headers'),
      headersGet: headers.get,
      NativeReadableStream: target.ReadableStream,
      getReader: stream.getReader,
      streamCancel: stream.cancel,
      locked: getter(stream, 'locked'),
      read: reader.read,
      readerCancel: reader.cancel,
      enqueue: controller.enqueue,
      close: controller.close,
      error: controller.error,
      byobRequest: getter(controller, 'byobRequest'),
      respond: request.respond,
      byteLength: getter(typedArray, 'byteLength'),
      byteOffset: getter(typedArray, 'byteOffset'),
      buffer: getter(typedArray, 'buffer'),
      NativeUint8Array: target.Uint8Array,
      setBytes: method(typedArray, 'set'),
      Decoder: target.TextDecoder,
      decode: target.TextDecoder.prototype.decode,
      channel: captureChannel(target),
    }
    const { response: members, channel: _channel, ...rest } = natives
    return everyOf(rest, (value) => typeof value === 'function') && everyOf(members, (value) => value !== undefined) ? (natives as BodyNatives) : null
  } catch {
    return null
  }
}

/** Null when the realm has no MessageChannel shaped as a browser's: the guard then reads in the page's read (later-reading.ts). */
function captureChannel(target: typeof globalThis): ChannelNatives | null {
  const NativeMessageChannel = target.MessageChannel as typeof MessageChannel | undefined
  const NativeMessagePort = target.MessagePort as typeof MessagePort | undefined
  if (typeof NativeMessageChannel !== 'function' || typeof NativeMessagePort !== 'function') return null
  const channel = NativeMessageChannel.prototype
  const port = NativeMessagePort.prototype
  const found = {
    NativeMessageChannel,
    port1: getOwnPropertyDescriptor(channel, 'port1')?.get,
    port2: getOwnPropertyDescriptor(channel, 'port2')?.get,
    postMessage: getOwnPropertyDescriptor(port, 'postMessage')?.value as unknown,
    setOnmessage: getOwnPropertyDescriptor(port, 'onmessage')?.set,
  }
  return everyOf(found, (value) => typeof value === 'function') ? (found as ChannelNatives) : null
}

/** Whether every own value of `record` passes `test`. */
function everyOf(record: object, test: (value: unknown) => boolean): boolean {
  const names = objectKeys(record)
  for (let i = 0; i < names.length; i++) if (!test((record as Record<string, unknown>)[names[i]!])) return false
  return true
}
