import './common-controls.css'
import './toolbar.css'
import type { Ref } from 'preact'
import { useEffect, useRef, useState } from 'preact/hooks'
import type { PanelStore } from '../store/panel-store.ts'
import type { ImportResult } from '../store/session-file.ts'
import { sessionSizeError } from '../store/session-size.ts'
import { ExportMenu } from './export-menu.tsx'
import { ClearIcon, RecordIcon, UploadIcon } from './icons.tsx'
import { DropsIndicator, FaultsIndicator } from './indicators.tsx'

/** Typing pauses this long before the filter runs over every recorded row. */
const FILTER_DELAY_MS = 120

interface ToolbarProps {
  readonly store: PanelStore
  readonly onImported: (result: ImportResult, fileName: string) => void
  /** The filter's text box, for the find key (Ctrl+F). */
  readonly filterRef?: Ref<HTMLInputElement>
}

/** DevTools-style controls: record, clear, preserve log, filters, export and import, problems. */
export function Toolbar({ store, onImported, filterRef }: ToolbarProps) {
  const { paused, preserveLog, filter } = store
  const fileInput = useRef<HTMLInputElement>(null)
  const [text, setText] = useState(filter.text)
  const tools = store.tools()

  // The text this toolbar last gave the store: a different store text was set elsewhere (the
  // "clear the filter" button) and replaces what is typed here.
  const pushed = useRef(filter.text)
  if (filter.text !== pushed.current) {
    pushed.current = filter.text
    if (text !== filter.text) setText(filter.text)
  }
  useEffect(() => {
    if (text === pushed.current) return
    const timer = setTimeout(() => {
      pushed.current = text
      store.setFilter({ tool: store.filter.tool, text })
    }, FILTER_DELAY_MS)
    return () => clearTimeout(timer)
  }, [text, store])

  async function importFile(input: HTMLInputElement) {
    const file = input.files?.[0]
    input.value = ''
    if (!file) return
    // Refused before reading: a huge file never lands in the panel's memory.
    const tooLarge = sessionSizeError(file.size, store.maxBytes)
    if (tooLarge !== undefined) return onImported({ ok: false, errors: [tooLarge] }, file.name)
    onImported(store.importSession(await file.text()), file.name)
  }

  return (
    <div class="rtg-toolbar" role="toolbar" aria-label="Recording controls">
      <button
        type="button"
        class="rtg-tool-button"
        data-testid="record-toggle"
        aria-pressed={!paused}
        title={paused ? 'Record: resume recording' : 'Stop recording'}
        onClick={() => store.setPaused(!paused)}
      >
        <RecordIcon recording={!paused} />
      </button>
      <button type="button" class="rtg-tool-button" data-testid="clear" title="Clear" aria-label="Clear" onClick={() => store.clear()}>
        <ClearIcon />
      </button>
      <span class="rtg-divider" />
      <label class="rtg-check" title="Keep the log when the page reloads or navigates">
        <input type="checkbox" data-testid="preserve-log" checked={preserveLog} onChange={(event) => store.setPreserveLog(event.currentTarget.checked)} />
        Preserve log
      </label>
      <span class="rtg-divider" />
      <input
        type="search"
        class="rtg-filter"
        placeholder="Filter"
        aria-label="Filter by text"
        aria-keyshortcuts="Control+F"
        ref={filterRef}
        data-testid="filter-text"
        value={text}
        onInput={(event) => setText(event.currentTarget.value)}
      />
      <select
        class="rtg-select"
        aria-label="Filter by tool"
        data-testid="filter-tool"
        value={filter.tool ?? ''}
        onChange={(event) => store.setFilter({ tool: event.currentTarget.value === '' ? null : event.currentTarget.value, text: store.filter.text })}
      >
        <option value="">All tools</option>
        {filter.tool !== null && !tools.includes(filter.tool) && <option value={filter.tool}>{filter.tool}</option>}
        {tools.map((tool) => (
          <option key={tool} value={tool}>
            {tool}
          </option>
        ))}
      </select>
      <span class="rtg-divider" />
      <ExportMenu store={store} />
      <button type="button" class="rtg-tool-button" data-testid="import" title="Import a session file" onClick={() => fileInput.current?.click()}>
        <UploadIcon /> Import
      </button>
      <input ref={fileInput} type="file" accept=".json,application/json" hidden data-testid="import-input" onChange={(event) => void importFile(event.currentTarget)} />
      {store.imported && (
        <button type="button" class="rtg-tool-button" data-testid="back-to-live" title="Leave the imported session and show the page live again" onClick={() => store.backToLive()}>
          Back to live
        </button>
      )}
      <span class="rtg-spacer" />
      <DropsIndicator drops={store.drops()} />
      <FaultsIndicator faults={store.faults()} />
    </div>
  )
}
