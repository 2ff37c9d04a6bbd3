import type { GuardConfig } from '../../../../engine/index.ts'
import type { DropReason } from '../../protocol/messages.ts'

/** `14:03:07.251`, local time: what DevTools shows for log timestamps. */
export function clockTime(at: number): string {
  const d = new Date(at)
  const two = (n: number) => String(n).padStart(2, '0')
  return `${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}.${String(d.getMilliseconds()).padStart(3, '0')}`
}

/** A one-line head of a long text; the full text is one click away. */
export function preview(text: string, max = 160): string {
  const line = text.length > max ? `${text.slice(0, max)}…` : text
  return line.replace(/\s+/g, ' ')
}

// One formatter for the whole panel: Number#toLocaleString builds a new one on every call, which
// costs tens of microseconds, and the counters are redrawn on every live batch.
const NUMBER_FORMAT = new Intl.NumberFormat('en-US')

/** `12,345`: counts as the panel writes them, whatever the browser's locale. */
export const formatNumber = (n: number): string => NUMBER_FORMAT.format(n)

export const count = (n: number, one: string, many = `${one}s`): string => `${formatNumber(n)} ${n === 1 ? one : many}`

export const DROP_REASONS: Readonly<Record<DropReason, string>> = {
  source: 'not from this page or this extension',
  version: 'another protocol version',
  shape: 'malformed (wrong shape)',
  size: 'over the size limits',
  sender: 'from the wrong sender',
  rate: 'over the tab’s rate limit',
}

export function describeThresholds(config: GuardConfig): string {
  return config.thresholds.join(', ')
}

export function describePatterns(patterns: readonly string[], none: string): string {
  return patterns.length === 0 ? none : patterns.join(', ')
}

/** `850 ms`, `12.3 s`, `4 min 05 s`: how long a loop ran, as the waste meter writes it. */
export function formatDuration(ms: number): string {
  if (ms < 1_000) return `${formatNumber(Math.round(ms))} ms`
  if (ms < 60_000) return `${(Math.floor(ms / 100) / 10).toFixed(1)} s`
  const seconds = Math.floor(ms / 1_000)
  return `${formatNumber(Math.floor(seconds / 60))} min ${String(seconds % 60).padStart(2, '0')} s`
}
