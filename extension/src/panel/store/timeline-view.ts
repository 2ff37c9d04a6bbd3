import { BoundedLog } from './bounded-log.ts'
import type { RowSource } from './entry-log.ts'
import { compileFilter, isFiltering, type TimelineFilter } from './timeline-filter.ts'
import type { TimelineEntry, TimelineEvent } from './timeline-entry.ts'

/**
 * The rows a timeline shows, addressed by absolute row index in [start, end). Rows only ever
 * append at the end and fall off the front, until `epoch` changes (other agent, new filter,
 * clear, import): then every index means something new.
 */
export interface TimelineView {
  readonly epoch: number
  readonly start: number
  readonly end: number
  entry(row: number): TimelineEntry
  /** The row's event, without making its entry. */
  event(row: number): TimelineEvent
}

/** A view over one log, kept current in O(new entries) per sync. */
export class LogView implements TimelineView {
  /** Log positions of matching entries; null when nothing is filtered (rows are log positions). */
  private readonly rows: BoundedLog<number> | null
  private readonly matches: ((entry: { readonly event: TimelineEvent }) => boolean) | null
  private scanned: number

  constructor(
    readonly source: RowSource,
    readonly filter: TimelineFilter,
    readonly epoch: number,
  ) {
    const filtering = isFiltering(filter)
    this.rows = filtering ? new BoundedLog<number>() : null
    this.matches = filtering ? compileFilter(filter) : null
    this.scanned = source.start
  }

  get start(): number {
    return this.rows ? this.rows.start : this.source.start
  }

  get end(): number {
    return this.rows ? this.rows.end : this.source.end
  }

  entry(row: number): TimelineEntry {
    const position = this.rows ? this.rows.at(row) : row
    const entry = position === undefined ? undefined : this.source.entry(position)
    if (!entry) throw new RangeError(`timeline row ${row} is outside [${this.start}, ${this.end})`)
    return entry
  }

  event(row: number): TimelineEvent {
    const position = this.rows ? this.rows.at(row) : row
    const event = position === undefined ? undefined : this.source.event(position)
    if (!event) throw new RangeError(`timeline row ${row} is outside [${this.start}, ${this.end})`)
    return event
  }

  /** Catches up with entries appended to, and dropped from, the source since the last sync. */
  sync(): void {
    const { rows, matches, source } = this
    if (!rows || !matches) return
    const first = source.start
    rows.shiftWhile((position) => position < first)
    // One probe object for the whole scan: the filter reads only the event.
    const probe: { event: TimelineEvent } = { event: undefined! }
    for (let p = Math.max(this.scanned, first); p < source.end; p++) {
      probe.event = source.event(p)!
      if (matches(probe)) rows.push(p)
    }
    this.scanned = source.end
  }
}
