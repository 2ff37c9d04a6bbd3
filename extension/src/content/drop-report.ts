// Counts dropped window messages by reason and reports what was counted since the last report,
// at most once per interval: a page flooding forgeries costs one small port message per interval.
import type { DropCounts, DropReason } from '../protocol/messages.ts'

interface DropReport {
  count(reason: DropReason): void
}

export function createDropReport(options: {
  readonly report: (drops: DropCounts) => void
  readonly later: (run: () => void, ms: number) => void
  readonly intervalMs?: number
}): DropReport {
  const { report, later, intervalMs = 250 } = options
  let pending: Partial<Record<DropReason, number>> = {}
  let scheduled = false
  return {
    count(reason) {
      pending[reason] = (pending[reason] ?? 0) + 1
      if (scheduled) return
      scheduled = true
      later(() => {
        scheduled = false
        const drops = pending
        pending = {}
        report(drops)
      }, intervalMs)
    },
  }
}
