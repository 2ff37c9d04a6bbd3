// The messages between the service worker and the toolbar's popup, and the tab summary the worker
// keeps in session storage across its restarts.
import { type BackgroundToPopup, type PopupToBackground, type TabSummary, MAX_SUMMARY_AGENTS } from './messages.ts'
import { LIMITS } from './events.ts'
import { frameOrigin, list, natural, oneOf, orNull, record, text, checkedBefore } from './check-shapes.ts'
import { type Checked, SMALL_BYTES, attempt, run } from './check-run.ts'
import { descriptorFields, descriptorOptional } from './event-checks.ts'

export function checkPopupToBackground(message: unknown): Checked<PopupToBackground> {
  return run(message, record({ v: checkedBefore, kind: oneOf('tab-summary'), tabId: natural }), { maxBytes: SMALL_BYTES })
}

const tabSummary = record({
  pageUrl: orNull(text(LIMITS.url)),
  pageOrigin: orNull(frameOrigin),
  agents: list(record(descriptorFields, { reach: descriptorOptional.reach }), MAX_SUMMARY_AGENTS),
  reminders: natural,
  observed: natural,
})

/** A summary the service worker kept in session storage, read back after a restart. */
export function checkTabSummary(value: unknown): Checked<TabSummary> {
  return attempt(value, () => tabSummary(value, '$'))
}

/** For the popup: the service worker's summary of a tab. */
export function checkBackgroundToPopup(message: unknown): Checked<BackgroundToPopup> {
  const check = record({ v: checkedBefore, kind: oneOf('tab-summary'), tabId: natural, summary: tabSummary })
  return run(message, check, { maxBytes: Number.POSITIVE_INFINITY })
}
