/** Rows a Page Up / Page Down moves. */
const PAGE = 10

/**
 * Where a key moves the keyboard's row in a list of rows `first..last`, as in DevTools' lists;
 * undefined for a key that moves nothing. From no row, ↓ starts at the first, ↑ at the last.
 */
export function movedTo(key: string, current: number | undefined, first: number, last: number): number | undefined {
  if (last < first) return undefined
  const clamp = (row: number) => Math.min(last, Math.max(first, row))
  switch (key) {
    case 'ArrowDown':
      return current === undefined ? first : clamp(current + 1)
    case 'ArrowUp':
      return current === undefined ? last : clamp(current - 1)
    case 'PageDown':
      return clamp((current ?? first) + PAGE)
    case 'PageUp':
      return clamp((current ?? last) - PAGE)
    case 'Home':
      return first
    case 'End':
      return last
    default:
      return undefined
  }
}
