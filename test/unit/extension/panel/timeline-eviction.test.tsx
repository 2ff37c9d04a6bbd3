// @vitest-environment happy-dom
import { act, cleanup, render, screen } from '@testing-library/preact'
import { afterEach, expect, it } from 'vitest'
import { RECOMMENDED_CONFIG } from '../../../../engine/index.ts'
import { Panel } from '../../../../extension/src/panel/components/panel.tsx'
import type { PanelEvent } from '../../../../extension/src/protocol/events.ts'
import { createPanelStore } from '../../../../extension/src/panel/store/panel-store.ts'

afterEach(cleanup)

const reminders = (from: number, count: number): PanelEvent[] =>
  Array.from({ length: count }, (_, i) => ({
    type: 'reminder' as const,
    at: from + i,
    agentId: 'hook:1',
    seq: from + i,
    tool: 't',
    count: 3,
    level: 'gentle' as const,
    text: `r-${from + i} `.padEnd(20_000, 'x'),
  }))

it('draws the newest rows when one batch pushes out every row drawn, and more', () => {
  // About ten such rows fit the budget; each batch brings fifteen.
  const store = createPanelStore({ maxBytes: 10 * 40_200 })
  render(<Panel store={store} sink={{ current: () => RECOMMENDED_CONFIG, apply: async () => undefined }} theme="light" />)
  for (let b = 0; b < 4; b++) act(() => store.ingest({ frameId: 0, url: 'u', events: reminders(b * 15 + 1, 15) }))
  const texts = screen.getAllByTestId('reminder-text').map((el) => el.textContent!.split(' ')[0])
  expect(texts.at(-1)).toBe('r-60')
  expect(store.stats().discarded).toBeGreaterThanOrEqual(50)
})
