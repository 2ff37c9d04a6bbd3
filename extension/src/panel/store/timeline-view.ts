import { BoundedLog } from './bounded-log.ts'
import { compileFilter, isFiltering, type TimelineFilter } from './timeline-filter.ts'
import type { TimelineEntry } from './timeline-entry.ts'

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
}

/** A view over one log, kept current in O(new entries) per sync. */
export class LogView implements TimelineView {
  /** Log positions of matching entries; null when nothing is filtered (rows are log positions). */
  private readonly rows: BoundedLog<number> | null
  private readonly matches: ((entry: TimelineEntry) => boolean) | null
  private scanned: number

  constructor(
    readonly source: BoundedLog<TimelineEntry>,
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
    const entry = position === undefined ? undefined : this.source.at(position)
    if (!entry) throw new RangeError(`timeline row ${row} is outside [${this.start}, ${this.end})`)
    return entry
  }

  /** Catches up with entries appended to, and dropped from, the source since the last sync. */
  sync(): void {
    const { rows, matches, source } = this
    if (!rows || !matches) return
    const first = source.start
    rows.shiftWhile((position) => position < first)
    for (let p = Math.max(this.scanned, first); p < source.end; p++) if (matches(source.at(p)!)) rows.push(p)
    this.scanned = source.end
  }
}
