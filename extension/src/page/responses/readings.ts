// The responses being read from their tees, for the requests that continue them. The page can
// send a request continuing a response before its copy is read to the end (the two branches of a
// tee are read in no fixed order): that request waits for that reading, and only that one. A
// reading whose response id its text has not told yet may be the one; once it tells another id,
// it is not waited for.

export interface ReadingHandle {
  /** The text read so far tells the response's id. */
  identified(id: string): void
  /** The reading is over, whatever its outcome. */
  finish(): void
}

export interface Readings {
  start(): ReadingHandle
  /**
   * Resolves once the response `id` is remembered or no reading in progress can be it; undefined
   * when that is so already.
   */
  settled(id: string): Promise<void> | undefined
}

interface Reading {
  id: string | undefined
}

/** `knows(id)`: whether the response is remembered already. */
export function createReadings(knows: (id: string) => boolean): Readings {
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
      return new Promise<void>((resolve) => {
        const check = (): void => {
          if (mustWait(id)) return
          waiting.delete(check)
          resolve()
        }
        waiting.add(check)
      })
    },
  }
}
