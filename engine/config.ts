import { canonicalArguments } from './canonical.ts'
import { patternProblem } from './patterns.ts'
import { headOf } from './text.ts'
import type { GuardConfig, GuardConfigInput } from './types.ts'
import { isRecord } from './values.ts'

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

const KEYS = Object.keys(DEFAULT_CONFIG)

/** A rejected configuration: `key` names the offending key (`thresholds[1]`), `value` holds what was given. */
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

/** The bad value as it was written (`"3"`, `3n`, `[1,2]`, `NaN`), cut at 80 characters. */
function describe(value: unknown): string {
  const text =
    typeof value === 'string' ? JSON.stringify(value)
    : typeof value === 'bigint' ? `${value}n`
    : typeof value === 'function' ? 'a function'
    // canonicalArguments never throws, so even an object with a throwing getter is described.
    : typeof value === 'object' && value !== null ? canonicalArguments(value)
    : String(value)
  const head = headOf(text, 80)
  return head === text ? text : `${head}…`
}

/**
 * Validates `input` and fills the keys it leaves out from `base` (the defaults unless given).
 * Fails loud: an unknown key, a wrong type or a bad value throws `GuardConfigError`.
 */
export function resolveConfig(input?: GuardConfigInput | unknown, base: GuardConfig = DEFAULT_CONFIG): GuardConfig {
  if (input === undefined) return base
  if (!isRecord(input)) throw new GuardConfigError('config', input, 'must be an object')
  const given = input
  for (const key of Object.keys(given)) if (!KEYS.includes(key)) throw unknownKey(key, given[key])
  const has = (key: keyof GuardConfig) => Object.hasOwn(given, key)
  return Object.freeze({
    thresholds: has('thresholds') ? thresholds(given.thresholds) : base.thresholds,
    include: has('include') ? patterns('include', given.include) : base.include,
    exclude: has('exclude') ? patterns('exclude', given.exclude) : base.exclude,
    argumentsPreviewChars: has('argumentsPreviewChars')
      ? previewChars(given.argumentsPreviewChars)
      : base.argumentsPreviewChars,
  })
}

function unknownKey(key: string, value: unknown): GuardConfigError {
  const distance = (known: string) => editDistance(known.toLowerCase(), key.toLowerCase())
  const nearest = KEYS.reduce((best, known) => (distance(known) < distance(best) ? known : best))
  const hint = distance(nearest) <= 2 ? `did you mean ${nearest}?` : `known keys: ${KEYS.join(', ')}`
  return new GuardConfigError(key, value, `is not a config key (${hint})`)
}

function thresholds(value: unknown): readonly number[] {
  if (!Array.isArray(value) || value.length === 0)
    throw new GuardConfigError('thresholds', value, 'must be a non-empty array of integers >= 2')
  const seen = new Set<number>()
  // An index loop, not forEach: a hole in the array is a bad value too.
  for (let i = 0; i < value.length; i++) {
    const t: unknown = value[i]
    if (typeof t !== 'number' || !Number.isSafeInteger(t) || t < 2)
      throw new GuardConfigError(`thresholds[${i}]`, t, 'must be an integer >= 2')
    if (seen.has(t)) throw new GuardConfigError(`thresholds[${i}]`, t, 'is a duplicate')
    seen.add(t)
  }
  return Object.freeze([...seen].sort((a, b) => a - b))
}

function patterns(key: 'include' | 'exclude', value: unknown): readonly string[] {
  if (!Array.isArray(value)) throw new GuardConfigError(key, value, 'must be an array of tool-name patterns')
  for (let i = 0; i < value.length; i++) {
    const p: unknown = value[i]
    if (typeof p !== 'string' || p.length === 0) throw new GuardConfigError(`${key}[${i}]`, p, 'must be a non-empty string')
    const problem = patternProblem(p)
    if (problem !== undefined) throw new GuardConfigError(`${key}[${i}]`, p, problem)
  }
  return Object.freeze([...(value as string[])])
}

function previewChars(value: unknown): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1)
    throw new GuardConfigError('argumentsPreviewChars', value, 'must be an integer >= 1')
  return value
}

/** Levenshtein distance, for the "did you mean" of a mistyped key. */
function editDistance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    const next = [i]
    for (let j = 1; j <= b.length; j++)
      next[j] = Math.min(row[j] + 1, next[j - 1] + 1, row[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1))
    row = next
  }
  return row[b.length]
}
