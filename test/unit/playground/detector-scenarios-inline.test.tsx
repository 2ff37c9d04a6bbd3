// @vitest-environment happy-dom
// Without the extension: the detector scenarios run on the playground's own engine, set to a
// preset, and its inline panel shows what the extension's panel shows.
import { act, cleanup, render, screen, waitFor } from '@testing-library/preact'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createRepeatToolGuard, RECOMMENDED_CONFIG } from '../../../engine/index.ts'
import { findPreset, presetConfig } from '../../../playground/ui/guard-presets.ts'
import { PanelPane } from '../../../playground/ui/panel-pane.tsx'
import { runScenario, stubScriptedFetch } from './scripted-run.ts'

beforeEach(() => void stubScriptedFetch())
afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
})

async function runInline(scenario: string, preset: string) {
  const engine = createRepeatToolGuard(RECOMMENDED_CONFIG)
  engine.configure(presetConfig(findPreset(preset)!))
  render(<PanelPane choice={{ via: 'playground', guard: engine }} />)
  let session: Awaited<ReturnType<typeof runScenario>> | undefined
  await act(async () => void (session = await runScenario(scenario, { engine })))
  return session!
}

const kinds = () => screen.getAllByTestId('timeline-row').map((row) => row.getAttribute('data-kind'))

describe("the detector scenarios in the playground's inline panel", () => {
  it('ping-pong with cycles: a cycle reminder, its four calls marked', async () => {
    const { lead } = await runInline('ping-pong', 'cycles')
    expect(lead.status).toBe('answered')
    await waitFor(() => expect(screen.getAllByTestId('reminder-badge').map((b) => b.textContent)).toEqual(['Cycle reminder']))
    expect(document.querySelectorAll('[data-kind="call"][data-in-cycle="true"]')).toHaveLength(4)
  })

  it.each([
    ['rephrase', 'similar', 'Near-repeat reminder'],
    ['flaky-tool', 'error-runs', 'Error-run reminder'],
    ['volatile-id', 'volatile-keys', 'Gentle reminder'],
  ])('%s with %s: one reminder, badged %s; with default none', async (scenario, preset, badge) => {
    const plain = await runInline(scenario, 'default')
    expect(plain.lead.status).toBe('answered')
    // The panel has every call of the run: a reminder would be among them by then.
    const calls = plain.lead.entries.filter((e) => e.kind === 'tool-result').length
    await waitFor(() => expect(kinds().filter((kind) => kind === 'call')).toHaveLength(calls))
    expect(kinds().filter((kind) => kind === 'reminder')).toEqual([])
    cleanup()
    const { lead } = await runInline(scenario, preset)
    expect(lead.status).toBe('answered')
    await waitFor(() => expect(screen.getAllByTestId('reminder-badge').map((b) => b.textContent)).toEqual([badge]))
    // Each is caught at its third call.
    expect(
      kinds()
        .slice(0, kinds().indexOf('reminder'))
        .filter((kind) => kind === 'call'),
    ).toHaveLength(3)
  })

  it('runaway with stop: the blocked call is a row, before the call reported as denied', async () => {
    const { lead } = await runInline('runaway', 'stop')
    expect(lead.status).toBe('answered')
    await waitFor(() => expect(screen.getAllByTestId('blocked-badge').map((b) => b.textContent)).toEqual(['blocked']))
    expect(kinds().slice(-2)).toEqual(['blocked', 'call'])
  })
})
