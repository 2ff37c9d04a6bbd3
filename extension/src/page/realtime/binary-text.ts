// The text of a binary WebSocket message, for the protocol that sends its JSON in binary frames
// (Gemini Live: a `Blob`, or an `ArrayBuffer` when the page asked for one). Built from what the
// page has at its first binary message (install.ts says why then), and the decoder made then too,
// so a frame that never reads a binary message never touches them. OpenAI Realtime's binary
// messages are never read.
import { callFunction, hasInstance } from '../../../../engine/intrinsics.ts'

/** Hands `data`'s text to `done`, now (a buffer) or once read (a Blob); anything else is left. */
export type BinaryText = (data: unknown, done: (text: string) => void) => void

const ownDescriptor = Object.getOwnPropertyDescriptor
const ignore = (): void => undefined

export function createBinaryText(target: typeof globalThis): BinaryText {
  let natives: ReturnType<typeof binaryNatives> | undefined
  let decoder: TextDecoder | undefined
  return (data, done) => {
    const { NativeBlob, NativeArrayBuffer, NativeTextDecoder, blobText, decode, then } = (natives ??= binaryNatives(target))
    if (typeof blobText === 'function' && typeof then === 'function' && hasInstance(NativeBlob, data)) {
      callFunction(then as typeof Promise.prototype.then, callFunction(blobText as () => Promise<string>, data, []), [done, ignore])
    } else if (typeof decode === 'function' && hasInstance(NativeArrayBuffer, data)) {
      decoder ??= new NativeTextDecoder()
      done(callFunction(decode as TextDecoder['decode'], decoder, [data]))
    }
  }
}

/** Taken at the first binary message (install.ts says why not at document_start). */
function binaryNatives(target: typeof globalThis) {
  const { Blob: NativeBlob, ArrayBuffer: NativeArrayBuffer, TextDecoder: NativeTextDecoder, Promise: NativePromise } = target
  return {
    NativeBlob,
    NativeArrayBuffer,
    NativeTextDecoder,
    blobText: (typeof NativeBlob === 'function' ? ownDescriptor(NativeBlob.prototype, 'text')?.value : undefined) as unknown,
    decode: (typeof NativeTextDecoder === 'function' ? ownDescriptor(NativeTextDecoder.prototype, 'decode')?.value : undefined) as unknown,
    then: ownDescriptor(NativePromise.prototype, 'then')?.value as unknown,
  }
}
