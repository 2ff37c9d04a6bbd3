import { useEffect, useState } from 'preact/hooks'
import { OPAQUE_ORIGIN } from '../protocol/frame-origin.ts'
import { defaultModeFor, ZERO_CODE_MODES, type ZeroCodeMode } from '../protocol/zero-code-mode.ts'
import type { ZeroCodeSink } from './zero-code-sink.ts'
import './zero-code-switch.css'

const EXPLAINED: Readonly<Record<ZeroCodeMode, string>> = {
  guard: 'Guard: LLM requests get the reminders inserted',
  observe: 'Observe: LLM requests are analysed and shown, and sent exactly as the page made them',
  off: 'Off: LLM requests are not analysed',
}

interface Setting {
  readonly mode: ZeroCodeMode
  /** Why it cannot be switched, when it cannot. */
  readonly fixed?: string
  readonly title: string
}

/**
 * What the page at `origin` runs. An opaque origin (a sandboxed page) has no setting of its own: the
 * page script runs its default there whatever is stored, so the switch shows that, and cannot move.
 */
function settingOf(sink: ZeroCodeSink, origin: string): Setting {
  if (origin === OPAQUE_ORIGIN) {
    const mode = defaultModeFor(undefined)
    return { mode, fixed: `This page is sandboxed (opaque origin): it always runs ${mode}.`, title: `${EXPLAINED[mode]} on this sandboxed page` }
  }
  const { mode, chosen } = sink.setting(origin)
  return { mode, title: `${EXPLAINED[mode]} on ${origin}${chosen ? '' : ' (the default for this origin)'}` }
}

/**
 * Zero-code mode's setting for the inspected page's origin, switched in one click. `origin` is the
 * top frame's as the browser names it (docs/security.md), never an address the page wrote.
 */
export function ZeroCodeSwitch({ sink, origin }: { sink: ZeroCodeSink; origin: string | undefined }) {
  const [, rerender] = useState(0)
  const [failure, setFailure] = useState<string | null>(null)
  useEffect(() => sink.subscribe(() => rerender((n) => n + 1)), [sink])
  if (origin === undefined) return null
  const { mode, fixed, title } = settingOf(sink, origin)
  const host = fixed !== undefined ? 'sandboxed' : origin.replace(/^[a-z-]+:\/\//, '') || origin

  function choose(next: ZeroCodeMode): void {
    setFailure(null)
    sink.choose(origin!, next).catch((error: unknown) => setFailure(`Not saved: ${String(error)}`))
  }

  return (
    <span class="rtg-zero-code" data-testid="zero-code" data-mode={mode}>
      <span title={title}>
        Zero-code: <b data-testid="zero-code-mode">{mode}</b> · <span class="rtg-zero-code-host mono">{host}</span>
      </span>
      <span class="rtg-segmented" role="group" aria-label={fixed ?? `Zero-code mode on ${origin}`}>
        {ZERO_CODE_MODES.map((option) => (
          <button
            key={option}
            type="button"
            class="rtg-segment"
            data-testid={`zero-code-${option}`}
            aria-pressed={option === mode}
            disabled={fixed !== undefined}
            title={EXPLAINED[option]}
            onClick={() => option !== mode && choose(option)}
          >
            {option}
          </button>
        ))}
      </span>
      {fixed !== undefined && (
        <span class="rtg-zero-code-reason" data-testid="zero-code-reason">
          {fixed}
        </span>
      )}
      {failure !== null && (
        <span class="rtg-error" role="alert">
          {failure}
        </span>
      )}
    </span>
  )
}
