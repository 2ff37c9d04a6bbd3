import './common-controls.css'
import './config-editor.css'
import { useEffect, useId, useState } from 'preact/hooks'
import { GuardConfigError, RECOMMENDED_CONFIG, resolveConfig, type GuardConfig } from '../../../../engine/index.ts'
import type { ConfigSink } from './config-sink.ts'
import { errorText } from '../../../../engine/safe-reading.ts'

interface ConfigEditorProps {
  /** Where the config is read from and saved to. */
  readonly sink: ConfigSink
  /** The button's label: "Apply" by default. */
  readonly applyLabel?: string
  /** Shown once applied: "Saved." by default. */
  readonly appliedMessage?: string
  /** Allow applying the saved config again (re-running rather than saving). */
  readonly applyUnchanged?: boolean
  /** What applying means, shown under the editor. */
  readonly hint?: string
  readonly testId?: string
}

/** One key per line, each list on one line: short enough to read and edit at a glance. */
function pretty(config: GuardConfig): string {
  const line = ([key, value]: [string, unknown]) => `  ${JSON.stringify(key)}: ${Array.isArray(value) ? `[${value.map((item) => JSON.stringify(item)).join(', ')}]` : JSON.stringify(value)}`
  return `{\n${Object.entries(config).map(line).join(',\n')}\n}`
}

type Checked = { readonly config: GuardConfig; readonly error?: never } | { readonly config?: never; readonly error: string }

/**
 * The config as JSON, validated by the engine's own `resolveConfig` as you type. A bad value shows
 * the engine's message and cannot be applied. Keys left out take the recommended values, as the
 * content script fills a stored value: the engine defaults would silently drop `todo_write` from
 * `exclude`, so `{"thresholds": [4]}` would mean one config here and another on the page.
 */
function check(text: string): Checked {
  let input: unknown
  try {
    input = JSON.parse(text)
  } catch (error) {
    return { error: `Invalid JSON: ${errorText(error)}` }
  }
  try {
    return { config: resolveConfig(input, RECOMMENDED_CONFIG) }
  } catch (error) {
    if (error instanceof GuardConfigError) return { error: error.message }
    throw error
  }
}

/** Edits a guard config: standalone (the playground) or inside the panel's Config and What-if tabs. */
export function ConfigEditor({ sink, applyLabel = 'Apply', appliedMessage = 'Saved.', applyUnchanged = false, hint, testId = 'config-editor' }: ConfigEditorProps) {
  const [saved, setSaved] = useState(() => pretty(sink.current()))
  const [text, setText] = useState(saved)
  const [status, setStatus] = useState<{ kind: 'idle' } | { kind: 'busy' } | { kind: 'done' } | { kind: 'failed'; message: string }>({ kind: 'idle' })
  const id = useId()
  const checked = check(text)
  const dirty = text !== saved

  useEffect(() => {
    if (!sink.subscribe) return
    return sink.subscribe(() => {
      const next = pretty(sink.current())
      setSaved(next)
      // Follow changes made elsewhere unless the user is in the middle of an edit.
      setText((current) => (current === saved ? next : current))
    })
  }, [sink, saved])

  async function apply(event: Event) {
    event.preventDefault()
    if (!checked.config) return
    setStatus({ kind: 'busy' })
    try {
      await sink.apply(checked.config)
      const next = pretty(checked.config)
      setSaved(next)
      setText(next)
      setStatus({ kind: 'done' })
    } catch (error) {
      setStatus({ kind: 'failed', message: errorText(error) })
    }
  }

  return (
    <form class="rtg-config-editor" data-testid={testId} onSubmit={apply}>
      <label class="rtg-label" for={id}>
        Config (JSON)
      </label>
      <textarea
        id={id}
        class="rtg-config-text mono"
        data-testid="config-input"
        spellcheck={false}
        rows={7}
        value={text}
        aria-invalid={checked.error !== undefined}
        onInput={(event) => {
          setText(event.currentTarget.value)
          setStatus({ kind: 'idle' })
        }}
      />
      {checked.error !== undefined ? (
        <p class="rtg-error" role="alert" data-testid="config-error">
          {checked.error}
        </p>
      ) : (
        <p class="rtg-muted">Valid. Thresholds {checked.config.thresholds.join(', ')}.</p>
      )}
      <div class="rtg-buttons">
        <button type="submit" class="rtg-button rtg-primary" data-testid="config-apply" disabled={checked.error !== undefined || status.kind === 'busy' || (!dirty && !applyUnchanged)}>
          {applyLabel}
        </button>
        <button type="button" class="rtg-button" disabled={!dirty} onClick={() => setText(saved)}>
          Revert
        </button>
        <button type="button" class="rtg-button" onClick={() => setText(pretty(RECOMMENDED_CONFIG))} title="thresholds 3, 5, 8; todo_write transparent">
          Recommended
        </button>
        <span class="rtg-status" role="status" data-testid="config-status">
          {status.kind === 'busy' ? 'Working…' : status.kind === 'done' ? appliedMessage : status.kind === 'failed' ? `Not saved: ${status.message}` : dirty ? 'Unsaved changes' : ''}
        </span>
      </div>
      {hint !== undefined && <p class="rtg-note">{hint}</p>}
    </form>
  )
}
