import type { InspectorEvent } from '../../protocol/events.ts'
import { textBytes } from './retained-bytes.ts'
import { textDigest } from './text-digest.ts'

/**
 * Recognises events the panel already recorded when the service worker replays a tab's history
 * after a reconnect. Calls and reminders carry a per-agent `seq` (checked by the store); the rest
 * are fingerprinted here, remembering only the most recent `capacity` of them. A fingerprint holds
 * digests of the event's texts, never the texts, so it stays a few dozen characters long.
 */
export class ReplayGuard {
  private readonly seen = new Set<string>()
  private readonly order: string[] = []
  private next = 0
  private held = 0

  constructor(private readonly capacity: number) {}

  /** Records the event; true when it was recorded before. */
  repeat(frameId: number, event: InspectorEvent): boolean {
    const print = fingerprint(frameId, event)
    if (print === undefined) return false
    if (this.seen.has(print)) return true
    if (this.order.length < this.capacity) this.order.push(print)
    else {
      this.held -= textBytes(this.order[this.next]!)
      this.seen.delete(this.order[this.next]!)
      this.order[this.next] = print
      this.next = (this.next + 1) % this.capacity
    }
    this.seen.add(print)
    this.held += textBytes(print)
    return false
  }

  /** What the remembered fingerprints cost, as the panel's byte budget counts it. */
  get bytes(): number {
    return this.held
  }

  clear(): void {
    this.seen.clear()
    this.order.length = 0
    this.next = 0
    this.held = 0
  }
}

/** Undefined for events whose replay is harmless (state that a second copy just restates). */
function fingerprint(frameId: number, event: InspectorEvent): string | undefined {
  switch (event.type) {
    case 'reset':
      return `${frameId}|reset|${event.at}|${textDigest(event.agentId)}|${event.reason}|${event.previousCount}`
    case 'blocked':
      return `${frameId}|blocked|${event.at}|${textDigest(event.agentId + '\n' + event.tool)}|${event.count}`
    case 'request':
      return `${frameId}|request|${event.at}|${textDigest(event.agentId + '\n' + event.url)}|${event.calls}|${event.remindersInserted}`
    case 'page-load':
      return `${frameId}|page-load|${event.at}|${textDigest(event.url)}`
    case 'fault':
      return `${frameId}|fault|${event.at}|${textDigest(event.message)}`
    default:
      return undefined
  }
}
