// The origin of the frame at the other end of a content port, from what the browser says of its
// sender, never from a message: a page can post any address it likes in its own events.
import { isFrameOrigin, OPAQUE_ORIGIN } from '../protocol/frame-origin.ts'
import { originOf } from '../protocol/zero-code-mode.ts'

export interface OriginSender {
  /** The frame's origin, as Chrome and Firefox give it (`null` for a sandboxed document). */
  readonly origin?: string
  /** The frame's URL. */
  readonly url?: string
}

/**
 * The sender's `origin` where the browser gives one, else the origin of its `url`; opaque when
 * neither names one, so nothing is switched for an origin the browser did not name.
 */
export function senderOrigin(sender: OriginSender | undefined): string {
  const given = sender?.origin
  if (typeof given === 'string' && isFrameOrigin(given)) return given
  return originOf(sender?.url ?? '') ?? OPAQUE_ORIGIN
}
