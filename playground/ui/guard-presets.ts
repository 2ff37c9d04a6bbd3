// The named guard options a link or the picker selects (`?config=<id>`): each turns on one opt-in
// detector over the recommended config, so a scenario shows what that one option changes.
import { RECOMMENDED_CONFIG, type GuardConfigInput, DETECTORS_OFF } from '../../engine/index.ts'

export interface GuardPreset {
  readonly id: string
  readonly title: string
  /** The detector keys it sets; everything else is the recommended config. */
  readonly options: GuardConfigInput
}

export const GUARD_PRESETS: readonly GuardPreset[] = [
  { id: 'default', title: 'Recommended config, no detectors', options: {} },
  { id: 'result-aware', title: 'resultAware: a repeat counts only with the same result', options: { resultAware: true } },
  { id: 'cycles', title: 'cycles: blocks of 2 or 3 calls repeated twice', options: { cycles: { maxPeriod: 3, repeats: 2 } } },
  { id: 'per-tool', title: "tools: grep counts by tool (countBy: 'tool')", options: { tools: [{ match: 'grep', countBy: 'tool' }] } },
  { id: 'stop', title: 'stopAfter: 5, a sixth identical call is blocked', options: { stopAfter: 5 } },
  // 0.75: the rephrase scenario's wordings are at least 0.80 alike one to the next, while the two
  // reads of ping-pong (0.73) and of rotation (0.71) stay apart, so only the loop it is for changes.
  { id: 'similar', title: 'similar: three near-identical calls of one tool in a row', options: { similar: { threshold: 0.75, minCalls: 3 } } },
  { id: 'error-runs', title: 'errorRuns: three failed calls of one tool in a row', options: { errorRuns: { after: 3 } } },
  { id: 'volatile-keys', title: "ignoreArgumentKeys: calls compared without their 'requestId'", options: { ignoreArgumentKeys: ['requestId'] } },
  // Zero-code mode only: the page API never sees the model's answers (docs/zero-code.md, "Repeated answers").
  { id: 'repeated-text', title: 'repeatedText: the same answer twice in a row (zero-code mode)', options: { repeatedText: { after: 2 } } },
]

export const DEFAULT_PRESET = GUARD_PRESETS[0]!

export function findPreset(id: string): GuardPreset | undefined {
  return GUARD_PRESETS.find((p) => p.id === id)
}

/** The whole config a preset stands for: a detector it leaves out is off, whatever was set before. */
export function presetConfig(preset: GuardPreset): GuardConfigInput {
  return { ...RECOMMENDED_CONFIG, ...DETECTORS_OFF, ...preset.options }
}
