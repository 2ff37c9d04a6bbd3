// @vitest-environment happy-dom
// The scenario picker's links: a scenario about one option links to a run with it and to one with
// the default, and the page reads each link back as that scenario, that preset and a run.
import { cleanup, render, screen } from '@testing-library/preact'
import { afterEach, describe, expect, test } from 'vitest'
import { findScenario, SCENARIOS } from '../../../playground/model/scenarios/index.ts'
import { findPreset } from '../../../playground/ui/guard-presets.ts'
import { PresetLinks } from '../../../playground/ui/preset-links.tsx'
import { readUrlOptions } from '../../../playground/ui/url-options.ts'

afterEach(cleanup)

describe('the preset links under the scenario picker', () => {
  test('each scenario about an option names a preset that exists', () => {
    const named = SCENARIOS.flatMap((s) => (s.preset === undefined ? [] : [[s.id, s.preset]]))
    expect(named).toEqual([
      ['polling', 'result-aware'],
      ['ping-pong', 'cycles'],
      ['rotation', 'cycles'],
      ['paging', 'per-tool'],
      ['runaway', 'stop'],
      ['rephrase', 'similar'],
      ['volatile-id', 'volatile-keys'],
      ['flaky-tool', 'error-runs'],
      ['same-answer', 'repeated-text'],
    ])
    for (const [id, preset] of named) expect(findPreset(preset!), id).toBeDefined()
  })

  test('rephrase links to a run with similar and one with the default, which the page reads back', () => {
    render(<PresetLinks scenario={findScenario('rephrase')!} />)
    const withPreset = screen.getByTestId('preset-link').getAttribute('href')!
    const withDefault = screen.getByTestId('default-link').getAttribute('href')!
    expect(withPreset).toBe('?scenario=rephrase&config=similar&autorun=1')
    expect(readUrlOptions(withPreset)).toMatchObject({ scenario: { id: 'rephrase' }, preset: { id: 'similar' }, autorun: true })
    expect(readUrlOptions(withDefault)).toMatchObject({ scenario: { id: 'rephrase' }, preset: { id: 'default' }, autorun: true })
  })

  test('same-answer links to a run with repeated-text, a preset that turns on repeatedText after two answers', () => {
    render(<PresetLinks scenario={findScenario('same-answer')!} />)
    const withPreset = screen.getByTestId('preset-link').getAttribute('href')!
    expect(withPreset).toBe('?scenario=same-answer&config=repeated-text&autorun=1')
    expect(readUrlOptions(withPreset)).toMatchObject({ scenario: { id: 'same-answer' }, preset: { id: 'repeated-text', options: { repeatedText: { after: 2 } } }, autorun: true })
  })

  test('a scenario about no option has no links', () => {
    render(<PresetLinks scenario={findScenario('replay-5')!} />)
    expect(screen.queryByTestId('preset-links')).toBeNull()
  })
})
