// @vitest-environment happy-dom
// The config editor and the config summary with the round-2 keys (docs/detectors.md, "Volatile argument keys, error runs, near repeats"):
// ignoreArgumentKeys, similar, errorRuns, repeatedText and their per-tool forms.
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/preact'
import { afterEach, describe, expect, it } from 'vitest'
import { RECOMMENDED_CONFIG, resolveConfig, type GuardConfig } from '../../../../engine/index.ts'
import { ConfigEditor } from '../../../../extension/src/panel/components/config-editor.tsx'
import { describeDetectors } from '../../../../extension/src/panel/components/detector-summary.ts'
import { engineError } from '../../../support/engine-error.ts'
import { memorySink, mount } from './support/panel-mount.tsx'

afterEach(cleanup)

const ROUND_TWO = {
  ignoreArgumentKeys: ['requestId'],
  similar: { threshold: 0.8, minCalls: 3 },
  errorRuns: { after: 3 },
  tools: [{ match: 'fetch_*', ignoreArgumentKeys: [], similar: null, errorRuns: { after: 5 } }],
}

function edit(value: unknown) {
  fireEvent.input(screen.getByTestId('config-input'), { target: { value: typeof value === 'string' ? value : JSON.stringify(value) } })
}

describe('the config editor with the round-2 keys', () => {
  it('applies them, top level and per tool, as the engine resolves them', async () => {
    const sink = memorySink()
    render(<ConfigEditor sink={sink} />)
    edit(ROUND_TWO)
    expect(screen.queryByTestId('config-error')).toBeNull()
    fireEvent.click(screen.getByTestId('config-apply'))
    await waitFor(() => expect(screen.getByTestId('config-status').textContent).toBe('Saved.'))
    expect(sink.saved).toEqual([resolveConfig(ROUND_TWO, RECOMMENDED_CONFIG)])
    expect(sink.saved[0]).toMatchObject(ROUND_TWO)
  })

  it.each([
    ['a threshold of 1', { similar: { threshold: 1, minCalls: 3 } }],
    ['minCalls under 3', { similar: { threshold: 0.8, minCalls: 2 } }],
    ['similar without minCalls', { similar: { threshold: 0.8 } }],
    ['errorRuns.after under 2', { errorRuns: { after: 1 } }],
    ['an empty argument key', { ignoreArgumentKeys: [''] }],
    ['a bad per-tool similar', { tools: [{ match: 'grep', similar: { threshold: 0.4, minCalls: 3 } }] }],
    ['a bad per-tool errorRuns', { tools: [{ match: 'grep', errorRuns: { after: 'x' } }] }],
    ['a bad repeatedText', { repeatedText: { after: 1 } }],
  ])('shows the engine’s error for %s and keeps the config in force', async (_, bad) => {
    const sink = memorySink()
    render(<ConfigEditor sink={sink} />)
    edit(bad)
    expect(screen.getByTestId('config-error').textContent).toBe(engineError(bad))
    const apply = screen.getByTestId('config-apply') as HTMLButtonElement
    expect(apply.disabled).toBe(true)
    await act(async () => void fireEvent.submit(screen.getByTestId('config-editor')))
    expect(sink.saved).toEqual([])
    expect(sink.current()).toBe(RECOMMENDED_CONFIG)
  })
})

describe('the detectors line of the config in force', () => {
  it('names each round-2 detector and what each override sets', () => {
    const config = resolveConfig(ROUND_TWO, RECOMMENDED_CONFIG)
    expect(describeDetectors(config)).toBe(
      'arguments compared without requestId · near repeats at 3 calls alike ≥ 0.8 · error runs after 3 · 1 per-tool override (fetch_*: every argument key; no near repeats; error runs after 5)',
    )
  })

  it('names per-tool lists and detectors turned on for one tool only', () => {
    const config = resolveConfig({ tools: [{ match: 'search', ignoreArgumentKeys: ['nonce', 'ts'], similar: { threshold: 0.7, minCalls: 4 }, errorRuns: null }, { match: 'read' }] })
    expect(describeDetectors(config)).toBe('2 per-tool overrides (search: without nonce, ts; near repeats at 4 calls alike ≥ 0.7; no error runs, read)')
  })

  it('names repeated answers, a zero-code detector', () => {
    const config: GuardConfig & { repeatedText: { after: number } } = { ...RECOMMENDED_CONFIG, repeatedText: { after: 2 } }
    expect(describeDetectors(config)).toBe('repeated answers after 2 (zero-code mode)')
  })

  it('is shown in the Config tab for the config the page reports', () => {
    const { store } = mount()
    const config = resolveConfig({ errorRuns: { after: 4 } }, RECOMMENDED_CONFIG)
    act(() => store.ingest({ frameId: 0, url: 'http://x/', events: [{ type: 'config', at: 1, config }] }))
    fireEvent.click(screen.getByTestId('tab-config'))
    expect(screen.getByTestId('config-in-force-detectors').textContent).toBe('error runs after 4')
  })
})
