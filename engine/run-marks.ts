// What a run's first call and the call that fires are marked with, for the waste a reminder
// reports (docs/detectors.md, "Waste"): the engine's clock, unless the caller steers it. Zero-code
// mode steers it to a number of its own for each call it hands on, so that it can time each run by
// the moment the page saw the response that made the call, and count the tokens those responses
// cost (docs/zero-code.md, "Waste").
let steered: number | undefined

/** The mark zero-code mode steers the call being observed to, if any (call-clock.ts reads it). */
export const steeredMark = (): number | undefined => steered

/** The mark of the call being observed: `at` unless steered. */
export const runMark = (at: number): number => steered ?? at

/** Runs `observe` with every run mark read as `mark`. */
export function withRunMark<T>(mark: number, observe: () => T): T {
  const outer = steered
  steered = mark
  try {
    return observe()
  } finally {
    steered = outer
  }
}
