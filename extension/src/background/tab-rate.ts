// Each tab's share of the service worker: a token bucket in events and one in bytes, refilled with
// time. A tab that sends faster than its share has its excess batches dropped (and counted), so a
// flooding page spends its own budget and never the work the worker owes to other tabs.

export interface TabRateLimits {
  readonly eventsPerSecond: number
  readonly burstEvents: number
  /** Bytes as `approxSize` counts them (about the JSON length). */
  readonly bytesPerSecond: number
  readonly burstBytes: number
}

/**
 * Far above what an agent sends (a busy one sends a few hundred events a second), yet a page
 * posting full batches back to back is cut to this share.
 */
const DEFAULT_TAB_RATE_LIMITS: TabRateLimits = {
  eventsPerSecond: 10_000,
  burstEvents: 20_000,
  bytesPerSecond: 32 * 1024 * 1024,
  burstBytes: 64 * 1024 * 1024,
}

export interface TabRate {
  /** Takes the batch's cost from the buckets when both hold it; false (and nothing taken) otherwise. */
  admit(events: number, bytes: number, now: number): boolean
}

export function createTabRate(limits: TabRateLimits = DEFAULT_TAB_RATE_LIMITS): TabRate {
  let events = limits.burstEvents
  let bytes = limits.burstBytes
  let last: number | undefined
  return {
    admit(cost, size, now) {
      // A clock that goes back refills nothing.
      const seconds = last === undefined ? 0 : Math.max(0, now - last) / 1000
      last = Math.max(last ?? now, now)
      events = Math.min(limits.burstEvents, events + seconds * limits.eventsPerSecond)
      bytes = Math.min(limits.burstBytes, bytes + seconds * limits.bytesPerSecond)
      if (cost > events || size > bytes) return false
      events -= cost
      bytes -= size
      return true
    },
  }
}
