// The responses being read as the caller reads them (a page, or a Node app), for the requests that continue them. The page
// can send a request continuing a response before it has read that response to the end (once it
// has its id, say): that request waits for that reading, and only that one. A reading whose
// response id its text has not told yet may be the one; once it tells another id, it is not
// waited for. A reading can stall (a stream that stops sending without ending, a page that stops
// reading): the wait is bounded, so the page's request is delayed at worst that long and never
// held forever. A reading starts at the page's first read: a body never read is never waited for.

export interface ReadingHandle {
  /** The text read so far tells the response's id. */
  identified(id: string): void
  /** The reading is over, whatever its outcome. */
  finish(): void
}

export interface ReadsInProgress {
  start(): ReadingHandle
  /**
   * Resolves to true once the response `id` is remembered or no reading in progress can be it, to
   * false when that is still not so after the longest wait; undefined when that is so already.
   */
  settled(id: string): Promise<boolean> | undefined
}

/** A response is read as fast as the page reads it: a reading this much later has stalled. */
export const LONGEST_WAIT_MS = 5_000

interface Reading {
  id: string | undefined
}

/** `knows(id)`: whether the response is remembered already; `later`: the page's timer, captured at start. */
export function createReadsInProgress(knows: (id: string) => boolean, later: (run: () => void, ms: number) => void): ReadsInProgress {
  const active = new Set<Reading>()
  /** Each waiting request's check, run on every change. */
  const waiting = new Set<() => void>()
  const changed = (): void => {
    for (const check of [...waiting]) check()
  }

  function mustWait(id: string): boolean {
    if (knows(id)) return false
    let unidentified = false
    for (const reading of active) {
      // The reading of that very response: only it counts.
      if (reading.id === id) return true
      if (reading.id === undefined) unidentified = true
    }
    return unidentified
  }

  return {
    start() {
      const reading: Reading = { id: undefined }
      active.add(reading)
      return {
        identified(id) {
          if (reading.id !== undefined) return
          reading.id = id
          changed()
        },
        finish() {
          if (active.delete(reading)) changed()
        },
      }
    },

    settled(id) {
      if (!mustWait(id)) return undefined
      return new Promise<boolean>((resolve) => {
        const check = (): void => {
          if (mustWait(id)) return
          waiting.delete(check)
          resolve(true)
        }
        waiting.add(check)
        later(() => {
          if (waiting.delete(check)) resolve(false)
        }, LONGEST_WAIT_MS)
      })
    },
  }
}
