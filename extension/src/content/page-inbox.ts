// Sorts what arrives on the window: our page script's batches and drop reports, forgeries and
// malformed copies of them (dropped, by reason), and everybody else's traffic (not ours: ignored,
// not counted).
import type { InspectorEvent } from '../protocol/events.ts'
import { PAGE_SOURCE, type DropCounts, type DropReason } from '../protocol/messages.ts'
import { checkPageToContent, isTagged } from '../protocol/validate.ts'

type PageMessage =
  | { readonly kind: 'events'; readonly events: readonly InspectorEvent[] }
  /** What the page script dropped of the relay's messages (a page can forge these too: its own tab's counts). */
  | { readonly kind: 'drops'; readonly drops: DropCounts }
  | { readonly kind: 'drop'; readonly reason: DropReason }
  | { readonly kind: 'ignore' }

/** `fromThisWindow`: `event.source === window` (a frame or opener posting to us is not our page script). */
export function readPageMessage(fromThisWindow: boolean, data: unknown): PageMessage {
  if (!isTagged(data, PAGE_SOURCE)) return { kind: 'ignore' }
  if (!fromThisWindow) return { kind: 'drop', reason: 'source' }
  const checked = checkPageToContent(data)
  if (!checked.ok) return { kind: 'drop', reason: checked.reason }
  const message = checked.value
  return message.kind === 'events' ? { kind: 'events', events: message.events } : { kind: 'drops', drops: message.drops }
}
