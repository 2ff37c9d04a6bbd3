import type { PanelEvent } from '../../protocol/events.ts'
import { BoundedLog } from './bounded-log.ts'
import { textBytes } from './retained-bytes.ts'
import { textDigest } from './text-digest.ts'

/**
 * Recognises events the panel already recorded when the service worker replays a tab's history
 * after a reconnect. Calls and reminders carry a per-agent `seq` (checked by the store); the rest
 * are fingerprinted here, remembering only the most recent `capacity` of them (fewer when the
 * panel's byte budget needs the room). A fingerprint holds digests of the event's texts, never the
 * texts, so it stays a few dozen characters long.
 */
export class ReplayGuard {
  private readonly seen = new Set<string>()
  private order = new BoundedLog<string>()
  private held = 0

  constructor(private readonly capacity: number) {}

  /** Records the event; true when it was recorded before. */
  repeat(frameId: number, event: PanelEvent): boolean {
    const print = fingerprint(frameId, event)
    if (print === undefined) return false
    if (this.seen.has(print)) return true
    if (this.order.size >= this.capacity) this.forgetOldest()
    this.order.push(print)
    this.seen.add(print)
    this.held += textBytes(print)
    return false
  }

  /** Forgets the oldest fingerprint; false when none is left. */
  forgetOldest(): boolean {
    const print = this.order.shift()
    if (print === undefined) return false
    this.seen.delete(print)
    this.held -= textBytes(print)
    return true
  }

  /** What the remembered fingerprints cost, as the panel's byte budget counts it. */
  get bytes(): number {
    return this.held
  }

  clear(): void {
    this.seen.clear()
    this.order = new BoundedLog()
    this.held = 0
  }
}

/** Undefined for events whose replay is harmless (state that a second copy just restates). */
function fingerprint(frameId: number, event: PanelEvent): string | undefined {
  switch (event.type) {
    case 'reset':
      return `${frameId}|reset|${event.at}|${textDigest(event.agentId)}|${event.reason}|${event.previousCount}`
    case 'blocked':
      return `${frameId}|blocked|${event.at}|${textDigest(`${event.agentId}\n${event.tool}`)}|${event.count}`
    case 'request':
      return `${frameId}|request|${event.at}|${textDigest(`${event.agentId}\n${event.url}`)}|${event.calls}|${event.remindersInserted}`
    case 'page-load':
      return `${frameId}|page-load|${event.at}|${textDigest(event.url)}`
    case 'fault':
      return `${frameId}|fault|${event.at}|${textDigest(event.message)}`
    default:
      return undefined
  }
}
