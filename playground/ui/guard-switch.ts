// Where the guard switch stands once a scenario is picked (docs/playground.md, "What it does").
import type { Scenario } from '../model/scenario.ts'

/**
 * The scenario's own setting when it has one; back on when leaving a scenario that set it, so its
 * setting does not carry over; else as the user left it.
 */
export function guardSwitchFor(next: Scenario, previous: { readonly scenario: Scenario; readonly guardOn: boolean }): boolean {
  if (next.guardOn !== undefined) return next.guardOn
  if (previous.scenario.guardOn !== undefined) return true
  return previous.guardOn
}
