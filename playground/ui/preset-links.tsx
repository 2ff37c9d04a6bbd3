// Under the scenario picker: the links that run the picked scenario with the guard options it is
// about and with the default, side by side (docs/playground.md, "Scenarios").
import type { Scenario } from '../model/scenario.ts'

/** A relative link the page reads on load (url-options.ts): it picks both and runs. */
export const presetRunLink = (scenario: string, preset: string): string => `?${new URLSearchParams({ scenario, config: preset, autorun: '1' })}`

export function PresetLinks({ scenario }: { scenario: Scenario }) {
  if (scenario.preset === undefined) return null
  return (
    <p class="muted" data-testid="preset-links">
      See what <code>{scenario.preset}</code> changes: run it{' '}
      <a href={presetRunLink(scenario.id, scenario.preset)} data-testid="preset-link">
        with {scenario.preset}
      </a>{' '}
      or{' '}
      <a href={presetRunLink(scenario.id, 'default')} data-testid="default-link">
        with the default
      </a>
      .
    </p>
  )
}
