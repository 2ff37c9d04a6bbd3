import stringify from 'safe-stable-stringify'
import type { GuardConfig, GuardConfigInput } from './types.ts'

/** The engine's defaults: every tool tracked, reminders at 3, 5 and 8. */
export const DEFAULT_CONFIG: GuardConfig = Object.freeze({
  thresholds: Object.freeze([3, 5, 8]),
  include: Object.freeze([]),
  exclude: Object.freeze([]),
  argumentsPreviewChars: 500,
})

/** What the extension and the playground ship: bookkeeping `todo_write` is transparent. */
export const RECOMMENDED_CONFIG: GuardConfig = Object.freeze({
  ...DEFAULT_CONFIG,
  exclude: Object.freeze(['todo_write']),
})

const KEYS = Object.keys(DEFAULT_CONFIG) as (keyof GuardConfig)[]

/** A rejected configuration: `key` names the offending key, `value` holds what was given. */
export class GuardConfigError extends Error {
  override readonly name = 'GuardConfigError'
  constructor(
    readonly key: string,
    readonly value: unknown,
    reason: string,
  ) {
    super(`${key} ${reason}, got ${describe(value)}`)
  }
}

function describe(value: unknown): string {
  if (value === undefined) return 'undefined'
  if (typeof value === 'number' && !Number.isFinite(value)) return String(value)
  const text = stringify(value) ?? String(value)
  return text.length > 80 ? `${text.slice(0, 80)}…` : text
}

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v)

function thresholds(value: unknown): readonly number[] {
  if (!Array.isArray(value) || value.length === 0)
    throw new GuardConfigError('thresholds', value, 'must be a non-empty array of integers >= 2')
  const seen = new Set<number>()
  value.forEach((t: unknown, i) => {
    if (typeof t !== 'number' || !Number.isInteger(t) || t < 2)
      throw new GuardConfigError(`thresholds[${i}]`, t, 'must be an integer >= 2')
    if (seen.has(t)) throw new GuardConfigError(`thresholds[${i}]`, t, 'is a duplicate')
    seen.add(t)
  })
  return Object.freeze([...seen].sort((a, b) => a - b))
}

function patterns(key: 'include' | 'exclude', value: unknown): readonly string[] {
  if (!Array.isArray(value)) throw new GuardConfigError(key, value, 'must be an array of tool-name patterns')
  value.forEach((p: unknown, i) => {
    if (typeof p !== 'string' || p.length === 0)
      throw new GuardConfigError(`${key}[${i}]`, p, 'must be a non-empty string')
  })
  return Object.freeze([...(value as string[])])
}

function previewChars(value: unknown): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1)
    throw new GuardConfigError('argumentsPreviewChars', value, 'must be an integer >= 1')
  return value
}

/**
 * Validates `input` and fills the keys it leaves out from `base` (the defaults unless given).
 * Fails loud: an unknown key, a wrong type or a bad value throws `GuardConfigError`.
 */
export function resolveConfig(input?: GuardConfigInput | unknown, base: GuardConfig = DEFAULT_CONFIG): GuardConfig {
  if (input === undefined) return base
  if (!isPlainObject(input)) throw new GuardConfigError('config', input, 'must be an object')
  for (const key of Object.keys(input))
    if (!(KEYS as string[]).includes(key))
      throw new GuardConfigError(key, input[key], `is not a config key (known: ${KEYS.join(', ')})`)
  const has = (key: keyof GuardConfig) => Object.hasOwn(input, key)
  return Object.freeze({
    thresholds: has('thresholds') ? thresholds(input.thresholds) : base.thresholds,
    include: has('include') ? patterns('include', input.include) : base.include,
    exclude: has('exclude') ? patterns('exclude', input.exclude) : base.exclude,
    argumentsPreviewChars: has('argumentsPreviewChars')
      ? previewChars(input.argumentsPreviewChars)
      : base.argumentsPreviewChars,
  })
}
