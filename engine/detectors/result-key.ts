// The result-aware detector's part of a run key: what a call's result says, so that a poll whose
// result changes is progress, not a loop.
import { canonicalArguments } from '../canonical.ts'
import type { ToolResult } from '../types.ts'

interface ResultFlags {
  readonly isError: boolean
  readonly denied: boolean
}

/**
 * The canonical form of `result.content` with `ignoreKeys` removed at any depth, plus `isError`
 * and `denied`. A result without content compares equal to any other without content. Reads
 * `content` once; a getter that throws there is the caller's fault to report.
 */
export function resultKey(result: ToolResult | null | undefined, flags: ResultFlags, ignoreKeys: readonly string[]): string {
  const content = result?.content
  const head = `${flags.isError ? 'E' : '-'}${flags.denied ? 'D' : '-'}`
  if (content === undefined) return head
  const canonical = canonicalArguments(content)
  return head + (ignoreKeys.length === 0 ? canonical : withoutKeys(canonical, ignoreKeys))
}

/**
 * The keys are removed from the canonical text, not from the content itself: that text is plain
 * JSON whatever the page handed over (getters, proxies, cycles), so reading it again is safe.
 */
function withoutKeys(canonical: string, ignoreKeys: readonly string[]): string {
  let data: unknown
  try {
    data = JSON.parse(canonical)
  } catch {
    // Content that is text, not JSON: it has no keys to remove.
    return canonical
  }
  const ignored = new Set(ignoreKeys)
  return canonicalArguments([strip(data, ignored)])
}

function strip(value: unknown, ignored: ReadonlySet<string>): unknown {
  if (typeof value !== 'object' || value === null) return value
  if (Array.isArray(value)) return value.map((item) => strip(item, ignored))
  // No prototype: a `__proto__` key stays an ordinary key, as JSON.parse made it.
  const kept: Record<string, unknown> = Object.create(null)
  for (const [key, item] of Object.entries(value)) if (!ignored.has(key)) kept[key] = strip(item, ignored)
  return kept
}
