// Zero-code mode's setting for this frame's origin. Until the content script brings the stored
// one, the page runs its origin's default: a site the user never set is observed, never rewritten.
import { defaultModeFor, frameOrigin, type ZeroCodeMode } from '../protocol/zero-code-mode.ts'

export interface OriginMode {
  /** Read on every fetch: a change applies to the next request. */
  readonly current: () => ZeroCodeMode
  set(mode: ZeroCodeMode): void
}

export function createOriginMode(win: Window): OriginMode {
  let mode = defaultModeFor(frameOrigin(win))
  return {
    current: () => mode,
    set(next) {
      mode = next
    },
  }
}
