// Counts dropped messages by reason and reports what was counted since the last report, at most
// once per interval: a burst of malformed messages costs one small message per interval. The relay
// reports to the service worker; the page script, whose drops the relay adds to its own, reports to
// the relay. Pure counting, with no extension API: both content scripts import it.
import type { DropCounts, DropReason } from './messages.ts'

interface DropReport {
  count(reason: DropReason): void
  /** Counts drops another hop reported. */
  add(drops: DropCounts): void
}

export function createDropReport(options: { readonly report: (drops: DropCounts) => void; readonly later: (run: () => void, ms: number) => void; readonly intervalMs?: number }): DropReport {
  const { report, later, intervalMs = 250 } = options
  let pending: Partial<Record<DropReason, number>> = {}
  let scheduled = false
  function tally(reason: DropReason, n: number | undefined): void {
    // A reported reason may be present as 0 or undefined (a structured clone keeps it): nothing to count.
    if (!n) return
    // Reported counts come from the page: keep the sum a count the validators accept.
    pending[reason] = Math.min((pending[reason] ?? 0) + n, Number.MAX_SAFE_INTEGER)
    if (scheduled) return
    scheduled = true
    later(() => {
      scheduled = false
      const drops = pending
      pending = {}
      report(drops)
    }, intervalMs)
  }
  return {
    count: (reason) => tally(reason, 1),
    add(drops) {
      for (const [reason, n] of Object.entries(drops) as [DropReason, number | undefined][]) tally(reason, n)
    },
  }
}
