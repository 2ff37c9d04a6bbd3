// The messages between the relay and the service worker: the relay's numbered batches and drop
// counts, the worker's acknowledgements and its requests to resync.
import { type BackgroundToContent, type BackgroundToRelay, type ContentToBackground, MAX_STREAM_CHARS } from './messages.ts'
import { LIMITS } from './events.ts'
import { checkedBefore, isTrue, natural, oneOf, record, text, variants } from './check-shapes.ts'
import { BATCH_BYTES, type Checked, SMALL_BYTES, run } from './check-run.ts'
import { dropCounts, events } from './event-checks.ts'

const sequence = { stream: text(MAX_STREAM_CHARS, 1), seq: natural }

export function checkContentToBackground(message: unknown): Checked<ContentToBackground> {
  const check = variants('kind', {
    events: record({ v: checkedBefore, kind: checkedBefore, url: text(LIMITS.url), events, ...sequence }, { resent: isTrue }),
    drops: record({ v: checkedBefore, kind: checkedBefore, drops: dropCounts, ...sequence }, { resent: isTrue }),
  })
  return run(message, check, { maxBytes: BATCH_BYTES })
}

export function checkBackgroundToContent(message: unknown): Checked<BackgroundToContent> {
  return run(message, record({ v: checkedBefore, kind: oneOf('resync') }), { maxBytes: SMALL_BYTES })
}

export function checkBackgroundToRelay(message: unknown): Checked<BackgroundToRelay> {
  const check = variants('kind', {
    resync: record({ v: checkedBefore, kind: checkedBefore }),
    ack: record({ v: checkedBefore, kind: checkedBefore, seq: natural }),
  })
  return run(message, check, { maxBytes: SMALL_BYTES })
}
