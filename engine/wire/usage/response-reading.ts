// A response read for waste as the page reads it (docs/zero-code.md, "Waste"): its text to the
// usage reader, and what it made, once the page read its end, to the records.
import type { GuardConfig } from '../../types.ts'
import type { ResponseRecords } from './response-records.ts'
import { createUsageReader } from './response-usage.ts'
import type { UsageRequests } from './usage-requests.ts'

/** One response read for waste. */
export interface ResponseReading {
  /** The next piece of its text; false once no more is needed. */
  push(text: string): boolean
  /** The page read its end at `at`: what it made is remembered with that time. */
  end(at: number): void
}

/** A response longer than this is not read for waste (4 MB of text). */
const MAX_RESPONSE_CHARS = 2 * 1024 * 1024

export function openResponseReading(records: ResponseRecords, requests: UsageRequests, request: string, config: GuardConfig): ResponseReading | undefined {
  if (!requests.reads(request, config)) return undefined
  const reader = createUsageReader(MAX_RESPONSE_CHARS)
  return {
    push: (text) => reader.push(text),
    end(at) {
      const usage = reader.end()
      if (usage) records.add(usage, at)
    },
  }
}
