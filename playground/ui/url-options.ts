// `?scenario=<id>&autorun=1`: pick a scenario (and run it) on load, so a link shows one behaviour.
import { findScenario, SCENARIOS } from '../model/scenarios/index.ts'
import type { Scenario } from '../model/scenario.ts'

export interface UrlOptions {
  readonly scenario: Scenario
  readonly autorun: boolean
  /** Set when the URL named a scenario that does not exist. */
  readonly unknownScenario?: string
}

export function readUrlOptions(search: string): UrlOptions {
  const params = new URLSearchParams(search)
  const id = params.get('scenario')
  const found = id === null ? undefined : findScenario(id)
  const autorun = ['1', 'true', 'yes'].includes(params.get('autorun') ?? '')
  return { scenario: found ?? SCENARIOS[0]!, autorun: autorun && (id === null || found !== undefined), ...(id !== null && !found ? { unknownScenario: id } : {}) }
}

/** Keeps the address bar on the picked scenario, so a reload or a shared link shows the same one. */
export function scenarioUrl(href: string, id: string): string {
  const url = new URL(href)
  url.searchParams.set('scenario', id)
  url.searchParams.delete('autorun')
  return url.href
}
