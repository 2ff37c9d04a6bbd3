// @vitest-environment happy-dom
// A reminder row shows the text exactly as carried, and says when the text was cut on its way.
import { cleanup, render, screen } from '@testing-library/preact'
import { afterEach, describe, expect, it } from 'vitest'
import { createRepeatToolGuard, RECOMMENDED_CONFIG, type GuardEvent } from '../../../../engine/index.ts'
import { TimelineRow } from '../../../../extension/src/panel/components/timeline-row.tsx'
import type { TimelineEntry } from '../../../../extension/src/panel/store/timeline-entry.ts'
import { LIMITS, type PanelEvent } from '../../../../extension/src/protocol/events.ts'
import { fromEngineEvent } from '../../../../extension/src/protocol/from-engine.ts'

afterEach(cleanup)

/** The reminders a guard with `argumentsPreviewChars` gives for five identical calls, as the panel receives them. */
function reminders(argumentsPreviewChars: number, argument: string): Extract<PanelEvent, { type: 'reminder' }>[] {
  const guard = createRepeatToolGuard({ ...RECOMMENDED_CONFIG, argumentsPreviewChars })
  const events: GuardEvent[] = []
  guard.subscribe((e) => void events.push(e))
  const agent = { name: 'writer' }
  for (let i = 0; i < 5; i++) guard.observe({ agent, name: 'write', arguments: { blob: argument } })
  return events.map(fromEngineEvent).filter((e) => e.type === 'reminder')
}

const row = (event: PanelEvent) => render(<TimelineRow entry={{ agent: '0.1:hook:1', frameId: 0, event } as TimelineEntry} expanded={false} onToggle={() => {}} />)

describe('a reminder row', () => {
  it('says how much of a cut reminder it shows', () => {
    const detailed = reminders(LIMITS.text * 2, 'x'.repeat(LIMITS.text)).at(-1)!
    expect(detailed.textLength).toBeGreaterThan(LIMITS.text)
    row(detailed)
    expect(screen.getByTestId('reminder-text').textContent).toBe(detailed.text)
    expect(screen.getByTestId('reminder-cut').textContent).toBe(`(cut: ${LIMITS.text.toLocaleString('en-US')} of ${detailed.textLength!.toLocaleString('en-US')} chars shown)`)
  })

  it('says nothing of a cut for a whole reminder', () => {
    const detailed = reminders(RECOMMENDED_CONFIG.argumentsPreviewChars, 'short').at(-1)!
    row(detailed)
    expect(screen.getByTestId('reminder-text').textContent).toBe(detailed.text)
    expect(screen.queryByTestId('reminder-cut')).toBeNull()
  })
})
