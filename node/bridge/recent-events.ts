// The events a panel that attaches late is sent first: the most recent ones, within a byte budget,
// so a process with a long life keeps a bounded history (docs/node-bridge.md, "Bounds").
import type { PanelEvent } from '../../extension/src/protocol/events.ts'
import { approxSize } from '../../extension/src/protocol/size.ts'

export class RecentEvents {
  private readonly events: { readonly event: PanelEvent; readonly bytes: number }[] = []
  private head = 0
  private held = 0
  /** Older events were let go since the process started. */
  truncated = false

  constructor(private readonly maxBytes: number) {}

  get bytes(): number {
    return this.held
  }

  push(event: PanelEvent): void {
    const bytes = approxSize(event)
    this.events.push({ event, bytes })
    this.held += bytes
    while (this.held > this.maxBytes && this.head < this.events.length) {
      this.held -= this.events[this.head]!.bytes
      this.head += 1
      this.truncated = true
    }
    // Compact now and then, so let-go entries do not stay referenced.
    if (this.head > 1_024 && this.head * 2 > this.events.length) {
      this.events.splice(0, this.head)
      this.head = 0
    }
  }

  /** The events held, oldest first, in batches of at most `perBatch`. */
  batches(perBatch: number): PanelEvent[][] {
    const out: PanelEvent[][] = []
    for (let i = this.head; i < this.events.length; i += perBatch) out.push(this.events.slice(i, Math.min(i + perBatch, this.events.length)).map(({ event }) => event))
    return out
  }
}
