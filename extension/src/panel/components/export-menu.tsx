// Export, as DevTools' Network panel offers it: a split button. The button itself writes the
// sanitized file; its arrow opens a menu with both choices. Keyboard: Tab reaches both halves;
// on the arrow, ↓, ↑, Enter or Space open the menu; in it ↑/↓ (wrapping), Home and End move,
// Enter or Space export, Escape closes it and Tab leaves it, back on the arrow.
import './common-controls.css'
import './export-menu.css'
import { useRef, useState } from 'preact/hooks'
import type { PanelStore, SessionContent } from '../store/panel-store.ts'
import { DownloadIcon } from './icons.tsx'
import { downloadSession } from './session-transfer.ts'

const CHOICES: readonly { readonly content: SessionContent; readonly label: string; readonly title: string }[] = [
  {
    content: 'sanitized',
    label: 'Export (sanitized)',
    title: 'Tool arguments, results and fault texts are written as their length and a hash; URLs without their secrets',
  },
  {
    content: 'with-arguments',
    label: 'Export with arguments',
    title: 'Everything the panel holds, tool arguments, results and fault texts included: they may hold keys or personal data',
  },
]

export function ExportMenu({ store }: { store: PanelStore }) {
  const [open, setOpen] = useState(false)
  const toggle = useRef<HTMLButtonElement>(null)
  const menu = useRef<HTMLDivElement>(null)

  const items = () => [...(menu.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])]
  // The menu is drawn on the next render: focus its item once it is there.
  const openAt = (index: 'first' | 'last') => {
    setOpen(true)
    requestAnimationFrame(() => {
      const all = items()
      all[index === 'first' ? 0 : all.length - 1]?.focus()
    })
  }
  const close = (refocus: boolean) => {
    setOpen(false)
    if (refocus) toggle.current?.focus()
  }
  const choose = (content: SessionContent) => {
    close(true)
    downloadSession(store, content)
  }

  function onToggleKey(event: KeyboardEvent): void {
    if (event.key === 'ArrowDown' || event.key === 'Enter' || event.key === ' ') openAt('first')
    else if (event.key === 'ArrowUp') openAt('last')
    else return
    event.preventDefault()
  }

  function onMenuKey(event: KeyboardEvent): void {
    const all = items()
    const at = all.indexOf(document.activeElement as HTMLElement)
    if (event.key === 'Escape') close(true)
    else if (event.key === 'Tab') return void close(false)
    else if (event.key === 'ArrowDown' || event.key === 'ArrowUp') all[(at + (event.key === 'ArrowDown' ? 1 : all.length - 1)) % all.length]?.focus()
    else if (event.key === 'Home' || event.key === 'End') all[event.key === 'Home' ? 0 : all.length - 1]?.focus()
    else return
    event.preventDefault()
  }

  return (
    <span
      class="rtg-split"
      onFocusOut={(event) => {
        // Focus (or a click) went somewhere else: the menu closes, as a menu does.
        if (open && !event.currentTarget.contains(event.relatedTarget as Node | null)) setOpen(false)
      }}
    >
      <button type="button" class="rtg-tool-button" data-testid="export" title={`${CHOICES[0]!.label}: ${CHOICES[0]!.title}`} onClick={() => downloadSession(store, 'sanitized')}>
        <DownloadIcon /> Export
      </button>
      <button
        type="button"
        ref={toggle}
        class="rtg-tool-button rtg-split-arrow"
        data-testid="export-menu"
        aria-label="Export options"
        aria-haspopup="menu"
        aria-expanded={open}
        onClick={() => (open ? close(false) : openAt('first'))}
        onKeyDown={onToggleKey}
      >
        ▾
      </button>
      {open && (
        <div class="rtg-menu" role="menu" aria-label="Export" ref={menu} onKeyDown={onMenuKey} data-testid="export-choices">
          {CHOICES.map(({ content, label, title }) => (
            <button key={content} type="button" role="menuitem" tabIndex={-1} class="rtg-menu-item" data-testid={`export-${content}`} title={title} onClick={() => choose(content)}>
              {label}
            </button>
          ))}
        </div>
      )}
    </span>
  )
}
