// Whether the body zero-code mode made may replace the page's. The analysis runs the same in
// guard and observe (same chain, same placements); only what goes out differs.
import type { Withheld } from '../../protocol/events.ts'
import type { ZeroCodeMode } from '../../protocol/zero-code-mode.ts'

/** The browser refuses keep-alive requests whose bodies add up to more than this many bytes. */
const KEEPALIVE_BODY_LIMIT = 65_536

/** Why the page's own body must go out, or undefined when `body` (if any) may replace it. */
export function withheldReason(mode: Exclude<ZeroCodeMode, 'off'>, keepalive: boolean, body: string | undefined): Withheld | undefined {
  if (mode === 'observe') return 'observe'
  if (body !== undefined && keepalive && longerInUtf8(body, KEEPALIVE_BODY_LIMIT)) return 'keepalive-limit'
  return undefined
}

/** Whether `text` takes more than `limit` bytes in UTF-8; counts only when its length cannot tell. */
function longerInUtf8(text: string, limit: number): boolean {
  if (text.length > limit) return true
  if (text.length * 3 <= limit) return false
  let bytes = 0
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c < 0x80) bytes += 1
    else if (c < 0x800) bytes += 2
    else if (c >= 0xd800 && c < 0xdc00 && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      // A surrogate pair: one code point, four bytes. A lone surrogate goes out as U+FFFD (three).
      bytes += 4
      i++
    } else bytes += 3
  }
  return bytes > limit
}
