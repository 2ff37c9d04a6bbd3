// Validation of the opt-in detector keys (docs/detectors.md, "The keys"). A key at its "off" value is left out of
// the resolved config, so a config that turns nothing on is the original's, byte for byte.
import { GuardConfigError, pattern, rejectUnknownKeys, thresholds } from '../config-rules.ts'
import type { CountBy, CycleConfig, ErrorRunConfig, RepeatedTextConfig, SimilarConfig, GuardConfig, GuardConfigInput, ToolOverride } from '../types.ts'
import { isRecord } from '../records.ts'
import { arrayFind, freeze, objectKeys as keysOf } from '../intrinsics.ts'

type DetectorKey = 'countBy' | 'resultAware' | 'ignoreResultKeys' | 'cycles' | 'stopAfter' | 'tools' | 'ignoreArgumentKeys' | 'errorRuns' | 'similar' | 'repeatedText'
type DetectorSettings = Pick<GuardConfig, DetectorKey>

/**
 * Every opt-in key at the value that turns it off. Merged under a whole config that replaces the
 * one in force, it turns off what that config leaves out (`configure` keeps keys left out).
 */
export const DETECTORS_OFF = freeze({
  countBy: 'call',
  resultAware: false,
  ignoreResultKeys: freeze([]),
  cycles: null,
  stopAfter: null,
  tools: freeze([]),
  ignoreArgumentKeys: freeze([]),
  errorRuns: null,
  similar: null,
  repeatedText: null,
} satisfies Required<Pick<GuardConfigInput, DetectorKey>>)

export const DETECTOR_KEYS = keysOf(DETECTORS_OFF) as readonly DetectorKey[]

const CYCLE_KEYS = ['maxPeriod', 'repeats']
const ERROR_RUN_KEYS = ['after']
const REPEATED_TEXT_KEYS = ['after']
const SIMILAR_KEYS = ['threshold', 'minCalls']
const OVERRIDE_KEYS = ['match', 'thresholds', 'countBy', 'resultAware', 'stopAfter', 'ignoreArgumentKeys', 'errorRuns', 'similar']
const MAX_PERIOD = 6

const RESOLVE: { readonly [K in DetectorKey]: (value: unknown) => DetectorSettings[K] | null } = {
  countBy: (value) => countBy('countBy', value),
  resultAware: (value) => flag('resultAware', value),
  ignoreResultKeys: (value) => objectKeys('ignoreResultKeys', value),
  cycles,
  stopAfter: (value) => stopAfter('stopAfter', value),
  tools,
  ignoreArgumentKeys: (value) => objectKeys('ignoreArgumentKeys', value),
  errorRuns: (value) => errorRuns('errorRuns', value),
  similar: (value) => similar('similar', value),
  repeatedText,
}

/** The detector keys of `given` validated, the others taken from `base`; only keys that are on. */
export function resolveDetectorKeys(given: Readonly<Record<string, unknown>>, base: GuardConfig): DetectorSettings {
  const resolved: Record<string, unknown> = {}
  for (const key of DETECTOR_KEYS) {
    const value = Object.hasOwn(given, key) ? RESOLVE[key](given[key]) : base[key]
    if (value !== undefined && !isOff(key, value)) resolved[key] = value
  }
  return resolved
}

/** Whether `config` turns any detector on: then every reminder event names its detector. */
export const anyDetectorOn = (config: GuardConfig): boolean => arrayFind(DETECTOR_KEYS, (key) => config[key] !== undefined) !== undefined

function isOff(key: DetectorKey, value: unknown): boolean {
  return value === DETECTORS_OFF[key] || (Array.isArray(value) && value.length === 0)
}

function countBy(key: string, value: unknown): CountBy {
  if (value !== 'call' && value !== 'tool') throw new GuardConfigError(key, value, 'must be "call" or "tool"')
  return value
}

function flag(key: string, value: unknown): boolean {
  if (typeof value !== 'boolean') throw new GuardConfigError(key, value, 'must be true or false')
  return value
}

const isInteger = (value: unknown, min: number, max = Number.MAX_SAFE_INTEGER): value is number => typeof value === 'number' && Number.isSafeInteger(value) && value >= min && value <= max

function stopAfter(key: string, value: unknown): number | null {
  if (value !== null && !isInteger(value, 2)) throw new GuardConfigError(key, value, 'must be null or an integer >= 2')
  return value
}

function objectKeys(name: string, value: unknown): readonly string[] {
  if (!Array.isArray(value)) throw new GuardConfigError(name, value, 'must be an array of object keys')
  for (let i = 0; i < value.length; i++) {
    const key: unknown = value[i]
    if (typeof key !== 'string' || key.length === 0) throw new GuardConfigError(`${name}[${i}]`, key, 'must be a non-empty string')
  }
  return Object.freeze([...(value as string[])])
}

function cycles(value: unknown): CycleConfig | null {
  if (value === null) return null
  if (!isRecord(value)) throw new GuardConfigError('cycles', value, 'must be null or an object { maxPeriod, repeats }')
  rejectUnknownKeys(value, CYCLE_KEYS, 'cycles.', 'cycles')
  const { maxPeriod, repeats } = value
  if (!isInteger(maxPeriod, 2, MAX_PERIOD)) throw new GuardConfigError('cycles.maxPeriod', maxPeriod, `must be an integer from 2 to ${MAX_PERIOD}`)
  if (!isInteger(repeats, 2)) throw new GuardConfigError('cycles.repeats', repeats, 'must be an integer >= 2')
  return Object.freeze({ maxPeriod, repeats })
}

function errorRuns(key: string, value: unknown): ErrorRunConfig | null {
  if (value === null) return null
  if (!isRecord(value)) throw new GuardConfigError(key, value, 'must be null or an object { after }')
  rejectUnknownKeys(value, ERROR_RUN_KEYS, `${key}.`, 'errorRuns')
  if (!isInteger(value.after, 2)) throw new GuardConfigError(`${key}.after`, value.after, 'must be an integer >= 2')
  return Object.freeze({ after: value.after })
}

// Top level only: an answer belongs to no tool (docs/detectors.md, "Repeated answers").
function repeatedText(value: unknown): RepeatedTextConfig | null {
  if (value === null) return null
  if (!isRecord(value)) throw new GuardConfigError('repeatedText', value, 'must be null or an object { after }')
  rejectUnknownKeys(value, REPEATED_TEXT_KEYS, 'repeatedText.', 'repeatedText')
  if (!isInteger(value.after, 2)) throw new GuardConfigError('repeatedText.after', value.after, 'must be an integer >= 2')
  return Object.freeze({ after: value.after })
}

function similar(key: string, value: unknown): SimilarConfig | null {
  if (value === null) return null
  if (!isRecord(value)) throw new GuardConfigError(key, value, 'must be null or an object { threshold, minCalls }')
  rejectUnknownKeys(value, SIMILAR_KEYS, `${key}.`, 'similar')
  const { threshold, minCalls } = value
  if (typeof threshold !== 'number' || !(threshold >= 0.5 && threshold < 1)) throw new GuardConfigError(`${key}.threshold`, threshold, 'must be a number from 0.5 up to but not including 1')
  if (!isInteger(minCalls, 3)) throw new GuardConfigError(`${key}.minCalls`, minCalls, 'must be an integer >= 3')
  return Object.freeze({ threshold, minCalls })
}

function tools(value: unknown): readonly ToolOverride[] {
  if (!Array.isArray(value)) throw new GuardConfigError('tools', value, 'must be an array of per-tool overrides')
  const overrides: ToolOverride[] = []
  for (let i = 0; i < value.length; i++) overrides.push(override(`tools[${i}]`, value[i]))
  return Object.freeze(overrides)
}

function override(key: string, value: unknown): ToolOverride {
  if (!isRecord(value)) throw new GuardConfigError(key, value, 'must be an object { match, thresholds?, countBy?, resultAware?, stopAfter? }')
  rejectUnknownKeys(value, OVERRIDE_KEYS, `${key}.`, 'tools entry')
  const has = (field: string) => Object.hasOwn(value, field)
  return Object.freeze({
    match: pattern(`${key}.match`, value.match),
    ...(has('thresholds') && { thresholds: thresholds(`${key}.thresholds`, value.thresholds) }),
    ...(has('countBy') && { countBy: countBy(`${key}.countBy`, value.countBy) }),
    ...(has('resultAware') && { resultAware: flag(`${key}.resultAware`, value.resultAware) }),
    ...(has('stopAfter') && { stopAfter: stopAfter(`${key}.stopAfter`, value.stopAfter) }),
    // Kept when empty: it replaces the top level's list, so `[]` compares this tool's every key.
    ...(has('ignoreArgumentKeys') && { ignoreArgumentKeys: objectKeys(`${key}.ignoreArgumentKeys`, value.ignoreArgumentKeys) }),
    ...(has('errorRuns') && { errorRuns: errorRuns(`${key}.errorRuns`, value.errorRuns) }),
    ...(has('similar') && { similar: similar(`${key}.similar`, value.similar) }),
  })
}
