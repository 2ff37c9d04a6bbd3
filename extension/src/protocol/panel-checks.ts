// The messages between the service worker and the panel: the panel's subscription, and the tab's
// history, live batches and drop counts sent back.
import type { BackgroundToPanel, PanelToBackground } from './messages.ts'
import { LIMITS } from './events.ts'
import { both, checkedBefore, flag, frameOrigin, isTrue, list, natural, oneOf, record, reject, text, variants } from './check-shapes.ts'
import { BATCH_BYTES, type Checked, SMALL_BYTES, run } from './check-run.ts'
import { dropCounts, events } from './event-checks.ts'
import { approxSize } from './size.ts'

const tabBatch = both(
  (value, path) => {
    if (approxSize(value, BATCH_BYTES) > BATCH_BYTES) reject('size', `${path} is larger than ${LIMITS.batchBytes} bytes`)
  },
  record({ frameId: natural, url: text(LIMITS.url), origin: frameOrigin, events }),
)

export function checkPanelToBackground(message: unknown): Checked<PanelToBackground> {
  return run(message, record({ v: checkedBefore, kind: oneOf('subscribe'), tabId: natural }), { maxBytes: SMALL_BYTES })
}

/** For the panel: a history may hold many batches, so each batch is capped, not the message. */
export function checkBackgroundToPanel(message: unknown): Checked<BackgroundToPanel> {
  const check = variants('kind', {
    history: record({ v: checkedBefore, kind: checkedBefore, tabId: natural, batches: list(tabBatch), truncated: flag }),
    batch: record({ v: checkedBefore, kind: checkedBefore, tabId: natural, batch: tabBatch }, { replayed: isTrue }),
    drops: record({ v: checkedBefore, kind: checkedBefore, tabId: natural, drops: dropCounts }),
  })
  return run(message, check, { maxBytes: Number.POSITIVE_INFINITY })
}
