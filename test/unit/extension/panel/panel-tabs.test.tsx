// @vitest-environment happy-dom
// The whole panel, mounted: its theme, the Config and What-if tabs, and importing a session file.
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/preact'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { readStoredConfig } from '../../../../extension/src/content/stored-config.ts'
import { Panel } from '../../../../extension/src/panel/components/panel.tsx'
import { createPanelStore } from '../../../../extension/src/panel/store/panel-store.ts'
import { engineError } from '../../../support/engine-error.ts'
import { change, memorySink, mount, ingestAgent } from './support/panel-mount.tsx'

afterEach(cleanup)

describe('theme', () => {
  it('follows DevTools’ theme when given, else the system’s, live', () => {
    const listeners: (() => void)[] = []
    const query = { matches: true, addEventListener: (_: string, l: () => void) => listeners.push(l), removeEventListener: vi.fn() }
    vi.stubGlobal('matchMedia', () => query)
    try {
      render(<Panel store={createPanelStore()} sink={memorySink()} />)
      expect(screen.getByTestId('inspector').className).toContain('rtg-theme-dark')
      query.matches = false
      act(() => listeners.forEach((l) => l()))
      expect(screen.getByTestId('inspector').className).toContain('rtg-theme-light')
      cleanup()
      render(<Panel store={createPanelStore()} sink={memorySink()} theme="dark" />)
      expect(screen.getByTestId('inspector').className).toContain('rtg-theme-dark')
    } finally {
      vi.unstubAllGlobals()
    }
  })
})

describe('Config tab', () => {
  async function openConfig() {
    const ctx = mount()
    ingestAgent(ctx.store, 'a', 1)
    fireEvent.click(screen.getByTestId('tab-config'))
    return ctx
  }

  it('shows the config in force and the engine’s exact error for a bad value, saving nothing', async () => {
    const { sink } = await openConfig()
    expect(screen.getByTestId('config-in-force-thresholds').textContent).toBe('3, 5, 8')
    const input = screen.getByTestId('config-input') as HTMLTextAreaElement
    fireEvent.input(input, { target: { value: JSON.stringify({ thresholds: [3, 1] }) } })
    expect(screen.getByTestId('config-error').textContent).toBe(engineError({ thresholds: [3, 1] }))
    expect((screen.getByTestId('config-apply') as HTMLButtonElement).disabled).toBe(true)
    fireEvent.submit(screen.getByTestId('config-editor'))
    fireEvent.input(input, { target: { value: '{"threshold": [4]}' } })
    expect(screen.getByTestId('config-error').textContent).toBe(engineError({ threshold: [4] }))
    fireEvent.input(input, { target: { value: '{"thresholds": [4,' } })
    expect(screen.getByTestId('config-error').textContent).toMatch(/^Invalid JSON: /)
    expect(sink.saved).toEqual([])
  })

  it('saves a good value through the sink, normalised by the engine', async () => {
    const { sink } = await openConfig()
    fireEvent.input(screen.getByTestId('config-input'), { target: { value: JSON.stringify({ thresholds: [6, 2], exclude: ['todo_*'] }) } })
    fireEvent.click(screen.getByTestId('config-apply'))
    await waitFor(() => expect(screen.getByTestId('config-status').textContent).toBe('Saved.'))
    expect(sink.saved).toEqual([{ thresholds: [2, 6], include: [], exclude: ['todo_*'], argumentsPreviewChars: 500 }])
    expect(JSON.parse((screen.getByTestId('config-input') as HTMLTextAreaElement).value).thresholds).toEqual([2, 6])
  })

  it('fills keys left out from the recommended config, as the page does with a stored value', async () => {
    const { sink } = await openConfig()
    fireEvent.input(screen.getByTestId('config-input'), { target: { value: '{"thresholds": [4]}' } })
    fireEvent.click(screen.getByTestId('config-apply'))
    await waitFor(() => expect(screen.getByTestId('config-status').textContent).toBe('Saved.'))
    expect(sink.saved).toEqual([{ thresholds: [4], include: [], exclude: ['todo_write'], argumentsPreviewChars: 500 }])
    // what the content script makes of the same text, had it been stored as typed
    expect(readStoredConfig({ thresholds: [4] })).toEqual({ ok: true, config: sink.saved[0] })
  })

  it('reports a sink that fails to save', async () => {
    const sink = memorySink()
    sink.apply = vi.fn(async () => {
      throw new Error('quota exceeded')
    })
    mount(createPanelStore(), sink)
    fireEvent.click(screen.getByTestId('tab-config'))
    fireEvent.input(screen.getByTestId('config-input'), { target: { value: '{"thresholds":[4]}' } })
    fireEvent.click(screen.getByTestId('config-apply'))
    await waitFor(() => expect(screen.getByTestId('config-status').textContent).toBe('Not saved: quota exceeded'))
  })
})

describe('What-if tab', () => {
  it('replays the recorded calls with an edited config and lists the differences', async () => {
    const { store, sink } = mount()
    ingestAgent(store, 'a', 5)
    fireEvent.click(screen.getByTestId('tab-what-if'))
    const editor = screen.getByTestId('what-if-editor')
    fireEvent.input(within(editor).getByTestId('config-input'), { target: { value: JSON.stringify({ thresholds: [2, 4] }) } })
    fireEvent.click(within(editor).getByTestId('config-apply'))
    await screen.findByTestId('what-if-result')
    expect(screen.getByTestId('what-if-summary').textContent).toContain('Replayed 5 calls: 2 reminders fired, 2 reminders would fire with this config.')
    expect(screen.getAllByTestId('what-if-row').map((row) => row.getAttribute('data-change'))).toEqual(['added', 'removed', 'added', 'removed'])
    fireEvent.click(within(screen.getAllByTestId('what-if-row')[0]!).getByRole('button'))
    expect(screen.getByText('Would fire').nextElementSibling?.textContent).toMatch(/^You are repeating/)
    expect(sink.saved).toEqual([])
  })
})

describe('import', () => {
  it('imports an exported file from the toolbar, and reports a bad one without losing anything', async () => {
    const source = createPanelStore()
    ingestAgent(source, 'exported', 3)
    const { store } = mount()
    ingestAgent(store, 'live', 1)
    const input = screen.getByTestId('import-input') as HTMLInputElement

    const bad = new File(['{"format":"nope"}'], 'bad.json', { type: 'application/json' })
    change(input, { files: [bad] })
    await screen.findByTestId('import-errors')
    expect(screen.getByTestId('import-result').textContent).toContain('bad.json was not imported')
    expect(screen.getByTestId('agent-label').textContent).toBe('live')

    const good = new File([source.exportSession()], 'session.json', { type: 'application/json' })
    change(input, { files: [good] })
    await waitFor(() => expect(screen.getByTestId('agent-label').textContent).toBe('exported'))
    expect(store.exportSession()).toBe(source.exportSession())
    expect(screen.getByTestId('import-result').textContent).toContain('Imported session.json')
  })
})
