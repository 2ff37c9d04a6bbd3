import { BoundedLog } from './bounded-log.ts'
import { rowBytes } from './retained-bytes.ts'
import type { AgentKey, TimelineEntry, TimelineEvent } from './timeline-entry.ts'

/** Timeline rows addressed by absolute position, as a view reads them. */
export interface RowSource {
  readonly start: number
  readonly end: number
  /** The row's event alone: no entry object is made. */
  event(n: number): TimelineEvent | undefined
  /** The row as an entry, the same object for as long as the row is held. */
  entry(n: number): TimelineEntry | undefined
}

/**
 * Every recorded timeline row, held column by column (event, agent, frame) rather than as one
 * wrapper object per row: hundreds of thousands of rows then cost three array slots each. The
 * entry objects components read are made when a row is first asked for, and kept while it lives
 * so each row keeps one identity. The rows' estimated bytes are summed as they come and go (a
 * row's estimate is computed again when it leaves rather than stored beside it).
 */
export class EntryLog implements RowSource {
  private readonly events = new BoundedLog<TimelineEvent>()
  private readonly agents = new BoundedLog<AgentKey | null>()
  private readonly frameIds = new BoundedLog<number>()
  private readonly made = new Map<number, TimelineEntry>()
  private held = 0

  get start(): number {
    return this.events.start
  }

  get end(): number {
    return this.events.end
  }

  get size(): number {
    return this.events.size
  }

  /** The rows' estimated bytes (see retained-bytes.ts). */
  get bytes(): number {
    return this.held
  }

  /** Appends a row; returns its absolute position. */
  push(agent: AgentKey | null, frameId: number, event: TimelineEvent): number {
    const position = this.events.end
    this.events.push(event)
    this.held += rowBytes(event, agent)
    this.agents.push(agent)
    this.frameIds.push(frameId)
    return position
  }

  event(n: number): TimelineEvent | undefined {
    return this.events.at(n)
  }

  agent(n: number): AgentKey | null | undefined {
    return this.agents.at(n)
  }

  entry(n: number): TimelineEntry | undefined {
    let entry = this.made.get(n)
    if (entry) return entry
    const event = this.events.at(n)
    if (event === undefined) return undefined
    entry = { agent: this.agents.at(n) as AgentKey | null, frameId: this.frameIds.at(n)!, event }
    this.made.set(n, entry)
    return entry
  }

  /** Drops the oldest row. */
  shift(): void {
    if (this.events.size === 0) return
    this.made.delete(this.events.start)
    this.held -= rowBytes(this.events.shift()!, this.agents.shift() ?? null)
    this.frameIds.shift()
  }

  /** The rows oldest first, as entries made afresh unless a view already made them. */
  *[Symbol.iterator](): IterableIterator<TimelineEntry> {
    for (let n = this.start; n < this.end; n++) yield this.made.get(n) ?? { agent: this.agents.at(n) as AgentKey | null, frameId: this.frameIds.at(n)!, event: this.events.at(n)! }
  }
}

/** One agent's rows: positions in the shared log. */
export class AgentRows implements RowSource {
  readonly positions = new BoundedLog<number>()

  constructor(private readonly log: EntryLog) {}

  get start(): number {
    return this.positions.start
  }

  get end(): number {
    return this.positions.end
  }

  event(n: number): TimelineEvent | undefined {
    const position = this.positions.at(n)
    return position === undefined ? undefined : this.log.event(position)
  }

  entry(n: number): TimelineEntry | undefined {
    const position = this.positions.at(n)
    return position === undefined ? undefined : this.log.entry(position)
  }
}
