// The text of a binary WebSocket message, for the protocol that sends its JSON in binary frames
// (Gemini Live: a `Blob`, or an `ArrayBuffer` when the page asked for one). Built from what the
// page had at document_start; the decoder itself is made on first need, so a frame that never
// reads a binary message never makes one. OpenAI Realtime's binary messages are never read.
import { callFunction, hasInstance } from '../../../../engine/intrinsics.ts'

/** Hands `data`'s text to `done`, now (a buffer) or once read (a Blob); anything else is left. */
export type BinaryText = (data: unknown, done: (text: string) => void) => void

const ownDescriptor = Object.getOwnPropertyDescriptor
const ignore = (): void => undefined

export function createBinaryText(target: typeof globalThis): BinaryText {
  const { Blob: NativeBlob, ArrayBuffer: NativeArrayBuffer, TextDecoder: NativeTextDecoder, Promise: NativePromise } = target
  const blobText: unknown = typeof NativeBlob === 'function' ? ownDescriptor(NativeBlob.prototype, 'text')?.value : undefined
  const decode: unknown = typeof NativeTextDecoder === 'function' ? ownDescriptor(NativeTextDecoder.prototype, 'decode')?.value : undefined
  const then: unknown = ownDescriptor(NativePromise.prototype, 'then')?.value
  let decoder: TextDecoder | undefined
  return (data, done) => {
    if (typeof blobText === 'function' && typeof then === 'function' && hasInstance(NativeBlob, data)) {
      callFunction(then as typeof Promise.prototype.then, callFunction(blobText as () => Promise<string>, data, []), [done, ignore])
    } else if (typeof decode === 'function' && hasInstance(NativeArrayBuffer, data)) {
      decoder ??= new NativeTextDecoder()
      done(callFunction(decode as TextDecoder['decode'], decoder, [data]))
    }
  }
}
