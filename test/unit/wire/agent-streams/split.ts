// A stream's text handed to a reading in random pieces, as a network hands them over: a seeded
// generator, so a failure can be replayed.
import type { AgentStreamReading, WireEvent } from '../../../../engine/wire/index.ts'

/** A small deterministic generator (mulberry32). */
export function seeded(seed: number): () => number {
  let state = seed
  return () => {
    state = (state + 0x6d2b79f5) | 0
    let t = Math.imul(state ^ (state >>> 15), 1 | state)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** Pushes `text` in pieces of 1 to `max` characters; the events of every push and of the end. */
export function readInPieces(reading: AgentStreamReading, text: string, seed: number, { max = 40, cut = false } = {}): WireEvent[] {
  const random = seeded(seed)
  const events: WireEvent[] = []
  for (let at = 0; at < text.length; ) {
    const size = 1 + Math.floor(random() * max)
    events.push(...reading.push(text.slice(at, at + size)))
    at += size
  }
  events.push(...reading.end(cut))
  return events
}
