// The panel redacts every URL it takes in, whatever the page and relay did before it: a forged or
// older batch, or an imported session, must not bring a key into the panel or an export.
import { headOf } from '../../../../engine/safe-reading.ts'
import { LIMITS, type PanelEvent } from '../../protocol/events.ts'
import type { StoreBatch } from './panel-store-api.ts'
import { redactUrl } from '../../protocol/redact-url.ts'

/**
 * `url` redacted, then cut to the protocol's cap again: `REDACTED` is longer than many a value it
 * replaces, and a session file holding a longer URL would not import.
 */
export const redactedUrl = (url: string): string => headOf(redactUrl(url), LIMITS.url)

/** `event` with its URL redacted; the very same object when there was nothing to remove. */
export function redactedEvent<T extends PanelEvent>(event: T): T {
  if (event.type !== 'page-load' && event.type !== 'request') return event
  const url = redactedUrl(event.url)
  return url === event.url ? event : { ...event, url }
}

/** `batch` with every URL redacted, allocating only for what changed. */
export function redactedBatch<T extends StoreBatch>(batch: T): T {
  const url = redactedUrl(batch.url)
  let events = batch.events
  for (let i = 0; i < events.length; i++) {
    const event = redactedEvent(events[i]!)
    if (event === events[i]) continue
    if (events === batch.events) events = [...events]
    ;(events as PanelEvent[])[i] = event
  }
  return url === batch.url && events === batch.events ? batch : { ...batch, url, events }
}
