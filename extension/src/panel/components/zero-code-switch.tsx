import { useEffect, useState } from 'preact/hooks'
import { originOf, ZERO_CODE_MODES, type ZeroCodeMode } from '../../protocol/zero-code-mode.ts'
import type { ZeroCodeSink } from './zero-code-sink.ts'

const EXPLAINED: Readonly<Record<ZeroCodeMode, string>> = {
  guard: 'Guard: LLM requests get the reminders inserted',
  observe: 'Observe: LLM requests are analysed and shown, and sent exactly as the page made them',
  off: 'Off: LLM requests are not analysed',
}

/** Zero-code mode's setting for the inspected page's origin, switched in one click. */
export function ZeroCodeSwitch({ sink, pageUrl }: { sink: ZeroCodeSink; pageUrl: string | undefined }) {
  const [, rerender] = useState(0)
  const [failure, setFailure] = useState<string | null>(null)
  useEffect(() => sink.subscribe(() => rerender((n) => n + 1)), [sink])
  const origin = pageUrl === undefined ? undefined : originOf(pageUrl)
  if (origin === undefined) return null
  const { mode, chosen } = sink.setting(origin)
  const host = origin.replace(/^[a-z-]+:\/\//, '') || origin

  function choose(next: ZeroCodeMode): void {
    setFailure(null)
    sink.choose(origin!, next).catch((error: unknown) => setFailure(`Not saved: ${String(error)}`))
  }

  return (
    <span class="rtg-zero-code" data-testid="zero-code" data-mode={mode}>
      <span title={`${EXPLAINED[mode]} on ${origin}${chosen ? '' : ' (the default for this origin)'}`}>
        Zero-code: <b data-testid="zero-code-mode">{mode}</b> · <span class="mono">{host}</span>
      </span>
      <span class="rtg-segmented" role="group" aria-label={`Zero-code mode on ${origin}`}>
        {ZERO_CODE_MODES.map((option) => (
          <button
            key={option}
            type="button"
            class="rtg-segment"
            data-testid={`zero-code-${option}`}
            aria-pressed={option === mode}
            title={EXPLAINED[option]}
            onClick={() => option !== mode && choose(option)}
          >
            {option}
          </button>
        ))}
      </span>
      {failure !== null && (
        <span class="rtg-error" role="alert">
          {failure}
        </span>
      )}
    </span>
  )
}
