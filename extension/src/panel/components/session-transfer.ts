import type { PanelStore, SessionContent } from '../store/panel-store.ts'

/** Saves the session as a JSON file through an ordinary download (works in DevTools and in a page). */
export function downloadSession(store: PanelStore, content: SessionContent, now = new Date()): void {
  const blob = new Blob([store.exportSession(content)], { type: 'application/json' })
  const url = URL.createObjectURL(blob)
  const link = document.createElement('a')
  link.href = url
  // The file that holds the arguments says so in its name.
  link.download = `repeat-tool-guard-session-${fileStamp(now)}${content === 'sanitized' ? '' : '-with-arguments'}.json`
  link.style.display = 'none'
  document.body.append(link)
  link.click()
  link.remove()
  // Revoked after the click has been handled; revoking at once can cancel the download.
  setTimeout(() => URL.revokeObjectURL(url), 10_000)
}

function fileStamp(d: Date): string {
  const two = (n: number) => String(n).padStart(2, '0')
  return `${d.getFullYear()}${two(d.getMonth() + 1)}${two(d.getDate())}-${two(d.getHours())}${two(d.getMinutes())}${two(d.getSeconds())}`
}
