// What the guard makes of a body's chunks as they pass through to the page (pass-through.ts): the
// text they decode to, handed to a sink until it wants no more. Nothing the sink does (throw, say)
// reaches the page's reading; once the sink is done, the chunks go on to the page undecoded.
import { callFunction } from '../../../../engine/intrinsics.ts'
import type { BodyNatives } from './body-natives.ts'
import { eachPiece, type PieceNatives } from './chunk-pieces.ts'
import type { Passage } from './pass-through.ts'

export interface BodySink {
  /** The next piece of the text; false when no more is needed. */
  chunk(text: string): boolean
  /** The text was read to its end. */
  end(): void
  /** The page stopped reading before the end (it cancelled the body). */
  cut(): void
  /** The body failed, or the sink threw. */
  fail(error: unknown): void
}

// The decoder reads only `stream` of its options, an own property here.
const STREAMING = { stream: true }

/**
 * The most bytes decoded at once. A network chunk can be megabytes (a fast server, a page that reads
 * slowly), and the browser makes a string of a megabyte several times slower per character than a
 * few of 64 KB (bench/ui-stream-page.bench.ts): a chunk is decoded, and handed on, in pieces.
 */
export const MAX_DECODED_BYTES = 64 * 1024

function failQuietly(sink: BodySink, error: unknown): void {
  try {
    sink.fail(error)
  } catch {
    // Nowhere left to report to.
  }
}

/**
 * Decodes the chunks as UTF-8 (the JSON and event-stream bodies the guard reads are), each in
 * pieces of at most `MAX_DECODED_BYTES`: the sink gets the same text, maybe in more pieces.
 */
export function watchBody(natives: Pick<BodyNatives, 'Decoder' | 'decode'> & PieceNatives, sink: BodySink): Passage {
  const { Decoder, decode } = natives
  const decoder = new Decoder()
  let watching = true

  /** Whether the sink wants more after `piece`. */
  const handOn = (piece: Uint8Array): boolean => sink.chunk(callFunction(decode, decoder, [piece, STREAMING]) as string)
  /** Whether the sink wants more after the whole of `bytes`. */
  const decoded = (bytes: Uint8Array): boolean => eachPiece(natives, bytes, MAX_DECODED_BYTES, handOn)

  return {
    chunk(bytes) {
      if (!watching) return
      try {
        if (decoded(bytes)) return
        watching = false
        sink.end()
      } catch (error) {
        watching = false
        failQuietly(sink, error)
      }
    },
    end() {
      if (!watching) return
      watching = false
      try {
        sink.chunk(callFunction(decode, decoder, []) as string)
        sink.end()
      } catch (error) {
        failQuietly(sink, error)
      }
    },
    cut() {
      if (!watching) return
      watching = false
      try {
        sink.cut()
      } catch (error) {
        failQuietly(sink, error)
      }
    },
    fail(error) {
      if (!watching) return
      watching = false
      failQuietly(sink, error)
    },
  }
}
