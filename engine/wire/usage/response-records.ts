// The responses the page read, remembered for the requests that carry what they made (docs/zero-code.md,
// "Waste"): each call (by its key) and each answer (by its text) with the moment the page finished
// reading its response and the tokens the response cost. Bounded: the oldest are forgotten first.
import type { ResponseUsage } from './response-usage.ts'

/** One response as the page saw it. */
export interface SeenResponse {
  /** When the page read its end. */
  readonly at: number
  /** Absent when the response told no usage. */
  readonly tokens?: number
  /** Tells responses apart: calls made by one response share its cost once. */
  readonly response: number
}

export interface ResponseRecords {
  add(usage: ResponseUsage, at: number): void
  forCall(key: string): SeenResponse | undefined
  forAnswer(text: string): SeenResponse | undefined
}

export function createResponseRecords(maxKeys: number): ResponseRecords {
  const seen = new Map<string, SeenResponse>()
  let responses = 0

  function remember(key: string, record: SeenResponse): void {
    // Re-set at the end: a key seen again is the newest.
    seen.delete(key)
    seen.set(key, record)
    if (seen.size > maxKeys) seen.delete(seen.keys().next().value!)
  }

  return {
    add({ tokens, calls, answer }, at) {
      const record = { at, ...(tokens !== undefined && { tokens }), response: ++responses }
      for (const key of calls) remember(key, record)
      if (answer !== undefined) remember(`answer\u0000${answer}`, record)
    },
    forCall: (key) => seen.get(key),
    forAnswer: (text) => seen.get(`answer\u0000${text}`),
  }
}
