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
  // Decided now, with the built-ins of document_start, from the origin alone, unless only the
  // frame's scheme can tell (an opaque origin, or a `file:` one): the first touch of `location`
  // costs every frame, so the first request reads it, and that decision needs no built-in a page
  // could have replaced since (protocol/zero-code-mode.ts).
  let mode: ZeroCodeMode | undefined = origin === 'null' || origin.startsWith('file:') ? undefined : defaultModeFor(origin)
  return {
    current: () => (mode ??= defaultModeFor(frameOrigin({ origin, location: win.location }))),
    set(next) {
      mode = next
    },
  }
}
