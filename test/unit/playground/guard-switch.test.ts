// The guard switch when a scenario is picked: same-answer turns it off (zero-code mode leaves alone
// an agent that reports to the page API), and leaving it turns it back on; otherwise it stays put.
import { describe, expect, test } from 'vitest'
import { findScenario, SCENARIOS } from '../../../playground/model/scenarios/index.ts'
import { guardSwitchFor } from '../../../playground/ui/guard-switch.ts'

const scenario = (id: string) => findScenario(id) ?? expect.unreachable(`no scenario ${id}`)

describe('the guard switch on picking a scenario', () => {
  test('same-answer turns it off, from on or off', () => {
    expect(guardSwitchFor(scenario('same-answer'), { scenario: scenario('stubborn'), guardOn: true })).toBe(false)
    expect(guardSwitchFor(scenario('same-answer'), { scenario: scenario('stubborn'), guardOn: false })).toBe(false)
  })

  test('leaving same-answer turns it back on, even if it was switched on and off again there', () => {
    expect(guardSwitchFor(scenario('stubborn'), { scenario: scenario('same-answer'), guardOn: false })).toBe(true)
  })

  test('between scenarios that do not set it, it stays as the user left it', () => {
    expect(guardSwitchFor(scenario('replay-5'), { scenario: scenario('stubborn'), guardOn: false })).toBe(false)
    expect(guardSwitchFor(scenario('replay-5'), { scenario: scenario('stubborn'), guardOn: true })).toBe(true)
  })

  test('only same-answer sets it', () => {
    expect(SCENARIOS.filter((s) => s.guardOn !== undefined).map((s) => [s.id, s.guardOn])).toEqual([['same-answer', false]])
  })
})
