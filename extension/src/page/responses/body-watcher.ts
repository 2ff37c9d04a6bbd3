// What the guard makes of a body's chunks as they pass through to the page (pass-through.ts): the
// text they decode to, handed to a sink until it wants no more. Nothing the sink does (throw, say)
// reaches the page's reading; once the sink is done, the chunks go on to the page undecoded.
import { callFunction } from '../../../../engine/intrinsics.ts'
import type { BodyNatives } from './body-natives.ts'
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

function failQuietly(sink: BodySink, error: unknown): void {
  try {
    sink.fail(error)
  } catch {
    // Nowhere left to report to.
  }
}

/** Decodes the chunks as UTF-8 (the JSON and event-stream bodies the guard reads are). */
export function watchBody({ Decoder, decode }: Pick<BodyNatives, 'Decoder' | 'decode'>, sink: BodySink): Passage {
  const decoder = new Decoder()
  let watching = true
  return {
    chunk(bytes) {
      if (!watching) return
      try {
        if (sink.chunk(callFunction(decode, decoder, [bytes, STREAMING]) as string)) return
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
