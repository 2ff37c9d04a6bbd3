// The reminders a request carries: every reminder inserted after a step so far, at the step's
// place in the body, written as the format's reminder item. The page's history never holds them,
// so each request carries them all again, at the same places.
import { jsonStringify } from '../intrinsics.ts'
import type { Planned } from './placements.ts'
import type { ConversationItem, InsertionPoint, WireFormatAdapter } from './types.ts'
import type { SeenItem } from './wire-agent.ts'

// Taken when the engine loads (at document_start in a page): a page that replaces JSON later
// cannot steer what we write.
const stringifyJson = jsonStringify

/**
 * The insertions for the items seen, in body order. `place` finds a place of the history in the
 * body sent, undefined for a place in a part sent before.
 */
export function planReminders(seen: readonly SeenItem[], items: readonly ConversationItem[], place: (at: InsertionPoint) => InsertionPoint | undefined, adapter: WireFormatAdapter): Planned[] {
  const planned: Planned[] = []
  seen.forEach(({ reminders }, index) => {
    const item = items[index]!
    if (item.kind !== 'step' || item.guarded || reminders.length === 0) return
    // A place in a part sent before: the provider already has what was inserted there.
    const at = place(item.at)
    // A step without call ids is told by its place among the items, which a history only grows after.
    const anchor = item.anchor ?? `item-${index}`
    if (at) planned.push({ item: index, at, values: reminders.map((text, rank) => stringifyJson(adapter.reminderItem(text, { anchor, index: rank }))) })
  })
  return planned
}
