import type { InspectorEvent } from '../../protocol/events.ts'

/**
 * Recognises events the panel already recorded when the service worker replays a tab's history
 * after a reconnect. Calls and reminders carry a per-agent `seq` (checked by the store); the rest
 * are fingerprinted here, remembering only the most recent `capacity` of them.
 */
export class ReplayGuard {
  private readonly seen = new Set<string>()
  private readonly order: string[] = []
  private next = 0

  constructor(private readonly capacity: number) {}

  /** Records the event; true when it was recorded before. */
  repeat(frameId: number, event: InspectorEvent): boolean {
    const print = fingerprint(frameId, event)
    if (print === undefined) return false
    if (this.seen.has(print)) return true
    if (this.order.length < this.capacity) this.order.push(print)
    else {
      this.seen.delete(this.order[this.next]!)
      this.order[this.next] = print
      this.next = (this.next + 1) % this.capacity
    }
    this.seen.add(print)
    return false
  }

  clear(): void {
    this.seen.clear()
    this.order.length = 0
    this.next = 0
  }
}

/** Undefined for events whose replay is harmless (state that a second copy just restates). */
function fingerprint(frameId: number, event: InspectorEvent): string | undefined {
  switch (event.type) {
    case 'reset':
      return `${frameId}|reset|${event.at}|${event.agentId}|${event.reason}|${event.previousCount}`
    case 'request':
      return `${frameId}|request|${event.at}|${event.agentId}|${event.url}|${event.calls}|${event.remindersInserted}`
    case 'page-load':
      return `${frameId}|page-load|${event.at}|${event.url}`
    case 'fault':
      return `${frameId}|fault|${event.at}|${event.message}`
    default:
      return undefined
  }
}
