// Zero-code mode's setting for this frame's origin. Until the content script brings the stored
// one, the page runs its origin's default: a site the user never set is observed, never rewritten.
import { defaultModeFor, frameOrigin, type ZeroCodeMode } from '../protocol/zero-code-mode.ts'

export interface OriginMode {
  /** Read on every fetch: a change applies to the next request. */
  readonly current: () => ZeroCodeMode
  set(mode: ZeroCodeMode): void
}

/** `origin` is the frame's, read at document_start. */
export function createOriginMode(win: Window, origin: string): OriginMode {
  // The default is found by the first request: the first touch of `location` (which no page can
  // replace) costs every frame, and a frame that never sends a request never needs it.
  let mode: ZeroCodeMode | undefined
  return {
    current: () => (mode ??= defaultModeFor(frameOrigin({ origin, location: win.location }))),
    set(next) {
      mode = next
    },
  }
}
