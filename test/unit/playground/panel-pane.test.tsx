// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/preact'
import { afterEach, describe, expect, it } from 'vitest'
import { createRepeatToolGuard, RECOMMENDED_CONFIG } from '../../../engine/index.ts'
import { PanelPane } from '../../../playground/ui/panel-pane.tsx'

afterEach(cleanup)

describe("the playground's inline panel", () => {
  it('applies a config with keys left out as the extension would: they take the recommended values', async () => {
    const guard = createRepeatToolGuard(RECOMMENDED_CONFIG)
    // The config in force differs from the recommended one, so a key filled from it would show.
    guard.configure({ exclude: [] })
    render(<PanelPane choice={{ via: 'playground', guard }} />)
    fireEvent.click(screen.getByTestId('tab-config'))
    fireEvent.input(screen.getByTestId('config-input'), { target: { value: '{"thresholds": [4]}' } })
    fireEvent.click(screen.getByTestId('config-apply'))
    await waitFor(() => expect(screen.getByTestId('config-status').textContent).toBe('Saved.'))
    expect(guard.config).toEqual({ thresholds: [4], include: [], exclude: ['todo_write'], argumentsPreviewChars: 500 })
  })
})
