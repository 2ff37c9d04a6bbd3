/**
 * `text` cut to at most `max` UTF-16 units. Never ends on the first half of a surrogate pair, so
 * the result is always well-formed text (it is shown in the panel and may be serialised as JSON).
 */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text
  const last = text.charCodeAt(max - 1)
  return text.slice(0, last >= 0xd800 && last <= 0xdbff ? max - 1 : max)
}
