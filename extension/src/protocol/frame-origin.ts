// A frame's origin as the browser names it (the port's sender), never as the page says: the popup
// and the panel show and switch zero-code mode's setting for it (docs/security.md).
import { originOf } from './zero-code-mode.ts'

/** How a browser writes an opaque origin (a sandboxed document's, `data:`): it has no setting of its own. */
export const OPAQUE_ORIGIN = 'null'

/** True for what can name a frame's origin: `scheme://host[:port]`, `file://`, or the opaque `null`. */
export function isFrameOrigin(value: string): boolean {
  return value === OPAQUE_ORIGIN || originOf(value) === value
}

/** The origin a zero-code setting is kept under for a frame of `origin`; undefined when opaque. */
export const settingOrigin = (origin: string): string | undefined => (origin === OPAQUE_ORIGIN ? undefined : origin)
