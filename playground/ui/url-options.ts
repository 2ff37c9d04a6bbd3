// `?scenario=<id>&config=<preset>&autorun=1`: pick a scenario and the guard's options (and run
// it) on load, so a link shows one behaviour.
import { findScenario, SCENARIOS } from '../model/scenarios/index.ts'
import type { Scenario } from '../model/scenario.ts'
import { DEFAULT_PRESET, findPreset, type GuardPreset } from './guard-presets.ts'

export interface UrlOptions {
  readonly scenario: Scenario
  readonly preset: GuardPreset
  readonly autorun: boolean
  /** Set when the URL named a scenario that does not exist. */
  readonly unknownScenario?: string
  /** Set when the URL named a preset that does not exist. */
  readonly unknownPreset?: string
}

export function readUrlOptions(search: string): UrlOptions {
  const params = new URLSearchParams(search)
  const id = params.get('scenario')
  const found = id === null ? undefined : findScenario(id)
  const presetId = params.get('config')
  const preset = presetId === null ? undefined : findPreset(presetId)
  const autorun = ['1', 'true', 'yes'].includes(params.get('autorun') ?? '')
  const known = (id === null || found !== undefined) && (presetId === null || preset !== undefined)
  return {
    scenario: found ?? SCENARIOS[0]!,
    preset: preset ?? DEFAULT_PRESET,
    autorun: autorun && known,
    ...(id !== null && !found ? { unknownScenario: id } : {}),
    ...(presetId !== null && !preset ? { unknownPreset: presetId } : {}),
  }
}

/** Keeps the address bar on the picked scenario and options, so a reload or a shared link shows the same. */
export function scenarioUrl(href: string, id: string, preset: string = DEFAULT_PRESET.id): string {
  const url = new URL(href)
  url.searchParams.set('scenario', id)
  if (preset === DEFAULT_PRESET.id) url.searchParams.delete('config')
  else url.searchParams.set('config', preset)
  url.searchParams.delete('autorun')
  return url.href
}
