// Where the copies of a watched body's chunks are kept until the guard reads them in a later task
// (later-reading.ts). A copy is made inside the page's read, so it must cost the page next to
// nothing: a new buffer of a megabyte costs the page milliseconds (the browser hands it over zeroed,
// and the memory is fresh), several times more than the bytes it holds take to copy into a buffer
// already made (bench/ui-stream-page.bench.ts). So the copies are written one after the other into
// one buffer, kept by the realm's reading queue, and written again from its start once no step of
// the queue waits to read one: every copy a waiting step holds stays as it was until that step has
// run. A buffer too small for what waits is left to those steps and a larger one made; a chunk
// larger than the most kept is copied on its own, as every chunk was before.
import { callFunction } from '../../../../engine/intrinsics.ts'
import type { BodyNatives } from './body-natives.ts'

export interface ChunkCopies {
  /** A copy of `bytes`, unchanged until every step queued when it was made has run. Throws as the chunk's own copy would. */
  copy(bytes: Uint8Array): Uint8Array
}

/** The most bytes the kept buffer grows to (a network chunk is rarely larger): the frame keeps it for the chunks to come. */
export const MAX_KEPT_BYTES = 4 * 1024 * 1024
/** The smallest kept buffer: most chunks of a streamed answer are a few hundred bytes. */
const FIRST_KEPT_BYTES = 64 * 1024

/** `idle`: whether no step of the queue waits to run (none holds a copy). */
export function createChunkCopies(natives: Pick<BodyNatives, 'NativeUint8Array' | 'setBytes' | 'byteLength' | 'buffer'>, idle: () => boolean): ChunkCopies {
  const { NativeUint8Array, setBytes, byteLength, buffer } = natives
  let kept: Uint8Array | undefined
  let keptBuffer: ArrayBufferLike | undefined
  let capacity = 0
  /** Where the next copy goes in `kept`. */
  let used = 0

  return {
    copy(bytes) {
      const length = callFunction(byteLength, bytes, []) as number
      // The constructor copies a typed array's bytes without looking up the page's `Symbol.species`.
      if (length > MAX_KEPT_BYTES) return new NativeUint8Array(bytes)
      if (idle()) used = 0
      if (capacity - used < length) {
        // The copies still waiting keep the old buffer alive until their steps have run.
        // No `Math.min`: the page may have replaced it.
        capacity = capacity === 0 ? FIRST_KEPT_BYTES : 2 * capacity
        while (capacity < length) capacity *= 2
        if (capacity > MAX_KEPT_BYTES) capacity = MAX_KEPT_BYTES
        kept = new NativeUint8Array(capacity)
        keptBuffer = callFunction(buffer, kept, [])
        used = 0
      }
      callFunction(setBytes, kept, [bytes, used])
      const copy = new NativeUint8Array(keptBuffer!, used, length)
      used += length
      return copy
    },
  }
}
