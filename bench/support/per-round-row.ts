// A row of a browser bench table from per-round timings of both sides, taken in turns: the median
// of the per-round ratios and their spread, so a slow moment of the machine falls on both sides.
import { median } from './quantile.ts'
import { ratioCells, type SpreadRow } from './spread-row.ts'

const duration = (ms: number) => (ms >= 1 ? `${ms.toFixed(2)} ms` : ms >= 0.001 ? `${(ms * 1000).toFixed(2)} µs` : `${(ms * 1e6).toFixed(0)} ns`)

/** `baseline[i]` and `measured[i]` (ms) were timed in round `i`; without a target the row only informs. */
export function perRoundRow(name: string, baseline: readonly number[], measured: readonly number[], target?: number): SpreadRow {
  const ratios = measured.map((m, i) => m / baseline[i]!)
  return { case: name, baseline: duration(median(baseline)), measured: duration(median(measured)), ...ratioCells(ratios, target) }
}

/**
 * The rows of a case timed as three arms in turns: native, measured, and native again. The second
 * native arm is the control: native against itself shows how far the ratio strays with nothing added.
 */
export function rowsWithControl(name: string, [native, measured, control]: readonly (readonly number[])[], target?: number): SpreadRow[] {
  return [perRoundRow(name, native!, measured!, target), perRoundRow('  control: native against itself (info)', native!, control!)]
}
