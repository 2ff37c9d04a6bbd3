// The error a rejected config raises and the rules more than one config key shares (thresholds,
// tool-name patterns, unknown keys), for the original keys and the detectors' alike.
import { canonicalArguments } from './canonical.ts'
import { patternProblem } from './patterns.ts'
import { headOf } from './text-head.ts'

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
    typeof value === 'string'
      ? JSON.stringify(value)
      : typeof value === 'bigint'
        ? `${value}n`
        : typeof value === 'function'
          ? 'a function'
          : // canonicalArguments never throws, so even an object with a throwing getter is described.
            typeof value === 'object' && value !== null
            ? canonicalArguments(value)
            : String(value)
  const head = headOf(text, 80)
  return head === text ? text : `${head}…`
}

/** Throws for the first key of `given` not in `known`, suggesting the key that was probably meant. */
export function rejectUnknownKeys(given: Readonly<Record<string, unknown>>, known: readonly string[], prefix: string, what: string): void {
  for (const key of Object.keys(given)) {
    if (known.includes(key)) continue
    const distance = (candidate: string) => editDistance(candidate.toLowerCase(), key.toLowerCase())
    const nearest = known.reduce((best, candidate) => (distance(candidate) < distance(best) ? candidate : best))
    const hint = distance(nearest) <= 2 ? `did you mean ${nearest}?` : `known keys: ${known.join(', ')}`
    throw new GuardConfigError(`${prefix}${key}`, given[key], `is not a ${what} key (${hint})`)
  }
}

export function thresholds(key: string, value: unknown): readonly number[] {
  if (!Array.isArray(value) || value.length === 0) throw new GuardConfigError(key, value, 'must be a non-empty array of integers >= 2')
  const seen = new Set<number>()
  // An index loop, not forEach: a hole in the array is a bad value too.
  for (let i = 0; i < value.length; i++) {
    const t: unknown = value[i]
    if (typeof t !== 'number' || !Number.isSafeInteger(t) || t < 2) throw new GuardConfigError(`${key}[${i}]`, t, 'must be an integer >= 2')
    if (seen.has(t)) throw new GuardConfigError(`${key}[${i}]`, t, 'is a duplicate')
    seen.add(t)
  }
  return Object.freeze([...seen].sort((a, b) => a - b))
}

/** A tool-name pattern that the matcher compiles: a config that validates never fails later. */
export function pattern(key: string, value: unknown): string {
  if (typeof value !== 'string' || value.length === 0) throw new GuardConfigError(key, value, 'must be a non-empty string')
  const problem = patternProblem(value)
  if (problem !== undefined) throw new GuardConfigError(key, value, problem)
  return value
}

/** Levenshtein distance, for the "did you mean" of a mistyped key. */
function editDistance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    const next = [i]
    for (let j = 1; j <= b.length; j++) next[j] = Math.min(row[j] + 1, next[j - 1] + 1, row[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1))
    row = next
  }
  return row[b.length]
}
