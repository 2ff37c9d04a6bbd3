// The first check on window traffic, kept apart from the validators: the start-up scripts run it on
// every message the window gets, long before (or without ever) loading the full checks.
import { isRecord } from '../../../engine/safe-reading.ts'
import type { CONTENT_SOURCE, PAGE_SOURCE } from './messages.ts'

/** Whether `data` claims to be one of our window messages (carries `tag` as its `source`). */
export function isTagged(data: unknown, tag: typeof PAGE_SOURCE | typeof CONTENT_SOURCE): boolean {
  return isRecord(data) && data.source === tag
}
