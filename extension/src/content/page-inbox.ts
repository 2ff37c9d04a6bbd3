// Sorts what the page script sends on the private channel: its batches and drop reports, and
// malformed messages (dropped, by reason). Only the page script holds the other end, so every
// message is counted: a malformed one is a defect, never another script's traffic.
import type { PanelEvent } from '../protocol/events.ts'
import type { DropCounts, DropReason } from '../protocol/messages.ts'
import { checkPageToContent } from '../protocol/validate.ts'

type PageMessage =
  | { readonly kind: 'events'; readonly events: readonly PanelEvent[] }
  /** What the page script dropped of the relay's messages. */
  | { readonly kind: 'drops'; readonly drops: DropCounts }
  | { readonly kind: 'drop'; readonly reason: DropReason }

export function readPageMessage(data: unknown): PageMessage {
  const checked = checkPageToContent(data)
  if (!checked.ok) return { kind: 'drop', reason: checked.reason }
  const message = checked.value
  return message.kind === 'events' ? { kind: 'events', events: message.events } : { kind: 'drops', drops: message.drops }
}
