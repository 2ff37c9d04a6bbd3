// What each bench file hands on for bench/RESULTS.md: the rows of the table it prints, with their
// ratio, target, interval and whether the target was met. They travel as the file's task meta, the
// one channel from a test worker to the reporter that writes the file at the end of the run
// (results-reporter.ts). Figures are never copied into a document by hand (docs/development.md,
// "Benchmarks").
import { afterAll } from 'vitest'
import type { RatioRow } from './observe-ratios.ts'

/**
 * One row of bench/RESULTS.md: every cell as the bench's own table prints it ('-' where it has
 * none). A browser bench's row (spread-row.ts) is one as it is.
 */
export interface ResultRow {
  readonly case: string
  readonly baseline: string
  readonly measured: string
  readonly ratio: string
  readonly interval: string
  readonly target: string
  readonly met: string
}

/** A bench file's table, as it goes into bench/RESULTS.md. */
export interface ResultTable {
  readonly title: string
  readonly rows: readonly ResultRow[]
}

declare module 'vitest' {
  interface TaskMeta {
    /** The tables a bench file kept for bench/RESULTS.md, in the order it kept them. */
    benchResults?: ResultTable[]
  }
}

/**
 * Keeps `title`'s table for bench/RESULTS.md: what `rows()` holds once the file's tests are done.
 * Called once per table, at the top of the bench file.
 */
export function keepForResults(title: string, rows: () => readonly ResultRow[]): void {
  // The file is the hook's second argument; vitest requires a destructuring pattern for the first.
  // biome-ignore lint/correctness/noEmptyPattern: vitest reads the hook's parameters and requires a pattern for the first
  afterAll(({}, file) => {
    file.meta.benchResults = [...(file.meta.benchResults ?? []), { title, rows: rows().map(onlyResultCells) }]
  })
}

/** The cells of a row, without the fields a bench's own table also prints (the spread). */
function onlyResultCells(row: ResultRow): ResultRow {
  return { case: row.case, baseline: row.baseline, measured: row.measured, ratio: row.ratio, interval: row.interval, target: row.target, met: row.met }
}

/** A row of the Node and engine benches (observe-ratios.ts), whose ratio is a number. */
export function ratioResult(row: RatioRow): ResultRow {
  return {
    case: row.name,
    baseline: row.baseline,
    measured: row.measured,
    ratio: row.ratio.toFixed(row.ratio > 0 && row.ratio < 0.1 ? 4 : 3),
    interval: row.interval ? `${row.interval[0].toFixed(3)}–${row.interval[1].toFixed(3)}` : '-',
    target: row.target === undefined ? '-' : `<= ${row.target}`,
    met: row.target === undefined ? '-' : row.ratio <= row.target ? 'yes' : 'NO',
  }
}
