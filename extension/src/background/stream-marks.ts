// How far the worker got in each relay's stream (RelaySequence): a message at or before its
// stream's mark was handled already, and a relay that sends it again after a port closed must not
// have it counted twice. Bounded: a tab's frames each hold a stream, and a reloaded frame a new one;
// the least recently advanced go first.
import { MAX_STREAM_CHARS } from '../protocol/messages.ts'

/** Streams remembered per tab: far more frames than a page runs agents in. */
export const MAX_STREAMS = 64

export interface StreamMarks {
  /** Records `seq` of `stream`; false when it, or a later message of its stream, was recorded before. */
  advance(stream: string, seq: number): boolean
  /** The marks as session storage keeps them: `[stream, seq]` pairs, least recently advanced first. */
  saved(): [string, number][]
}

const isMark = (pair: unknown): pair is [string, number] =>
  Array.isArray(pair) && pair.length === 2 && typeof pair[0] === 'string' && pair[0].length > 0 && pair[0].length <= MAX_STREAM_CHARS && Number.isSafeInteger(pair[1]) && (pair[1] as number) >= 0

/** Marks starting from `saved` (what `saved()` returned once); anything else starts empty. */
export function createStreamMarks(saved?: unknown): StreamMarks {
  const marks = new Map<string, number>(Array.isArray(saved) && saved.length <= MAX_STREAMS && saved.every(isMark) ? saved : [])
  return {
    advance(stream, seq) {
      const mark = marks.get(stream)
      if (mark !== undefined && seq <= mark) return false
      marks.delete(stream)
      marks.set(stream, seq)
      if (marks.size > MAX_STREAMS) marks.delete(marks.keys().next().value!)
      return true
    },
    saved: () => [...marks],
  }
}
