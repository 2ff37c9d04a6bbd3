// The time of the call being observed, read from the clock at most once per call, when something
// needs it: the call event's `at`, the start of each run the call begins (the chain's, an error
// run's, a near-repeat run's, a cycle's) and a reminder's `at` are all that one time. A stream of
// different calls starts several runs on every call: one read serves them all, and a run's
// `wasteMs` (docs/detectors.md, "Waste") is measured between two calls' times.
import { now } from './intrinsics.ts'

export interface CallClock {
  /** A new call begins: the next `at` reads the clock again. */
  next(): void
  /** The current call's time, read on first use. */
  at(): number
}

export function createCallClock(): CallClock {
  let read = false
  let time = 0
  return {
    next: () => {
      read = false
    },
    at: () => {
      if (!read) {
        time = now()
        read = true
      }
      return time
    },
  }
}
