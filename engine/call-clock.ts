// The time of the call being observed, read from the clock at most once per call, when something
// needs it: the call event's `at`, the start of each run the call begins (the chain's, an error
// run's, a near-repeat run's, a cycle's) and a reminder's `at` are all that one time. A stream of
// different calls starts several runs on every call: one read serves them all, and a run's
// `wasteMs` (docs/detectors.md, "Waste") is measured between two calls' times.
import { now } from './intrinsics.ts'
import { steeredMark } from './run-marks.ts'

export interface CallClock {
  /** A new call begins: the next `at` reads the clock again. */
  next(): void
  /** The current call's time, read on first use. */
  at(): number
  /** What the current call's runs are timed by: the mark zero-code mode steers (run-marks.ts), else `at()`. */
  mark(): number
}

export function createCallClock(): CallClock {
  let read = false
  let time = 0
  // The mark too is read once per call: a stream of different calls starts several runs on each
  // (the chain's, a near-repeat run's, a cycle's), and zero-code mode steers the mark around a
  // whole observed call (run-marks.ts), so every read within one call gives the same mark.
  let marked = false
  let mark = 0
  const at = (): number => {
    if (!read) {
      time = now()
      read = true
    }
    return time
  }
  return {
    next: () => {
      read = false
      marked = false
    },
    at,
    mark: () => {
      if (!marked) {
        mark = steeredMark() ?? at()
        marked = true
      }
      return mark
    },
  }
}
