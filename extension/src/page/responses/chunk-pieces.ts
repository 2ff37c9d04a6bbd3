// A chunk cut into views of at most some bytes: the body watcher decodes a chunk in pieces
// (body-watcher.ts), and the later reading reads it a piece per task (later-reading.ts).
import { callFunction } from '../../../../engine/intrinsics.ts'
import type { BodyNatives } from './body-natives.ts'

export type PieceNatives = Pick<BodyNatives, 'byteLength' | 'byteOffset' | 'buffer' | 'NativeUint8Array'>

/**
 * Hands `each` the views of `bytes` in order, each of at most `size` bytes (`bytes` itself when it
 * is no larger), until `each` says false; whether it never did. The views are made with the
 * captured constructor: `subarray` would look up the page's `Symbol.species`.
 */
export function eachPiece({ byteLength, byteOffset, buffer, NativeUint8Array }: PieceNatives, bytes: Uint8Array, size: number, each: (piece: Uint8Array, length: number) => boolean): boolean {
  const length = callFunction(byteLength, bytes, []) as number
  if (length <= size) return each(bytes, length)
  const whole = callFunction(buffer, bytes, []) as ArrayBufferLike
  const offset = callFunction(byteOffset, bytes, []) as number
  let at = 0
  for (; length - at > size; at += size) {
    if (!each(new NativeUint8Array(whole, offset + at, size), size)) return false
  }
  return each(new NativeUint8Array(whole, offset + at, length - at), length - at)
}
