// What the run detectors of round 2 (error runs, near repeats) give when a run fires: each fires
// when its run reaches its step, twice its step and three times it, then stays silent
// (docs/detectors.md, "Volatile argument keys, error runs, near repeats").
import type { ReminderMessage } from '../types.ts'

export interface RunFired {
  readonly count: number
  readonly message: ReminderMessage
  /** When the run's first call was seen: what the loop cost in time is measured from it. */
  readonly startedAt: number
}

/** Whether a run of `count` calls fires, for a detector whose step is `step`. */
export const firesAt = (count: number, step: number): boolean => count === step || count === 2 * step || count === 3 * step
