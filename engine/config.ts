import { GuardConfigError, pattern, rejectUnknownKeys, thresholds } from './config-rules.ts'
import { DETECTOR_KEYS, resolveDetectorKeys } from './detectors/config.ts'
import type { GuardConfig, GuardConfigInput } from './types.ts'
import { isRecord } from './records.ts'
import { freeze, joined, objectKeys } from './intrinsics.ts'

export { GuardConfigError } from './config-rules.ts'

/** The engine's defaults: every tool tracked, reminders at 3, 5 and 8. */
export const DEFAULT_CONFIG: GuardConfig = freeze({
  thresholds: freeze([3, 5, 8]),
  include: freeze([]),
  exclude: freeze([]),
  argumentsPreviewChars: 500,
})

/** What the extension and the playground ship: bookkeeping `todo_write` is transparent. */
export const RECOMMENDED_CONFIG: GuardConfig = freeze({
  ...DEFAULT_CONFIG,
  exclude: freeze(['todo_write']),
})

const KEYS = joined(objectKeys(DEFAULT_CONFIG), DETECTOR_KEYS)

/**
 * Validates `input` and fills the keys it leaves out from `base` (the defaults unless given).
 * Fails loud: an unknown key, a wrong type or a bad value throws `GuardConfigError`.
 */
export function resolveConfig(input?: GuardConfigInput | unknown, base: GuardConfig = DEFAULT_CONFIG): GuardConfig {
  if (input === undefined) return base
  // The presets are valid as they stand: taking them as they are keeps the built-ins a page may have
  // replaced out of a guard built late with one (the extension builds its guard on first use).
  if ((input === DEFAULT_CONFIG || input === RECOMMENDED_CONFIG) && base === DEFAULT_CONFIG) return input as GuardConfig
  if (!isRecord(input)) throw new GuardConfigError('config', input, 'must be an object')
  const given = input
  rejectUnknownKeys(given, KEYS, '', 'config')
  const has = (key: keyof GuardConfig) => Object.hasOwn(given, key)
  return Object.freeze({
    thresholds: has('thresholds') ? thresholds('thresholds', given.thresholds) : base.thresholds,
    include: has('include') ? patterns('include', given.include) : base.include,
    exclude: has('exclude') ? patterns('exclude', given.exclude) : base.exclude,
    argumentsPreviewChars: has('argumentsPreviewChars') ? previewChars(given.argumentsPreviewChars) : base.argumentsPreviewChars,
    ...resolveDetectorKeys(given, base),
  })
}

function patterns(key: 'include' | 'exclude', value: unknown): readonly string[] {
  if (!Array.isArray(value)) throw new GuardConfigError(key, value, 'must be an array of tool-name patterns')
  const kept: string[] = []
  for (let i = 0; i < value.length; i++) kept.push(pattern(`${key}[${i}]`, value[i]))
  return Object.freeze(kept)
}

function previewChars(value: unknown): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1) throw new GuardConfigError('argumentsPreviewChars', value, 'must be an integer >= 1')
  return value
}
