import { isFindKey } from '../components/find-key.ts'

/**
 * Ctrl+F with nothing focused in the panel page focuses its filter (the panel handles it while
 * the focus is inside it). Only for the panel page: an embedding page keeps its own Ctrl+F.
 */
export function focusFilterOnFind(win: Window = window): void {
  const doc = win.document
  // Captured on the window, before DevTools' own listener on the document forwards the key to
  // DevTools (whose search bar would take the focus).
  win.addEventListener(
    'keydown',
    (event) => {
      if (!isFindKey(event) || event.target !== doc.body) return
      const filter = doc.querySelector<HTMLInputElement>('.rtg-filter')
      if (!filter) return
      event.preventDefault()
      event.stopPropagation()
      filter.focus()
      filter.select()
    },
    true,
  )
}
