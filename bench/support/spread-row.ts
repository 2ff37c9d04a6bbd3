import { median, medianInterval, quantile } from './quantile.ts'

/** One row of a browser bench table: a median ratio over rounds taken in turns, and its spread. */
export interface SpreadRow {
  readonly case: string
  readonly baseline: string
  readonly measured: string
  readonly ratio: string
  /** The middle half of the per-round ratios, and how many rounds there were. */
  readonly spread: string
  /** Where the median of such rounds falls 95 times in 100 (quantile.ts). */
  readonly interval: string
  readonly target: string
  readonly met: string
}

const ms = (value: number) => (value >= 1 ? `${value.toFixed(2)} ms` : `${(value * 1000).toFixed(1)} µs`)

/**
 * The cells every row computes alike from the per-round ratios: their median against `target`
 * (without one the row only informs), their middle half and the median's interval.
 */
export function ratioCells(ratios: readonly number[], target?: number): Pick<SpreadRow, 'ratio' | 'spread' | 'interval' | 'target' | 'met'> {
  const ratio = median(ratios)
  // A quarter of fewer than four rounds is no spread.
  const few = ratios.length < 4
  const [low, high] = medianInterval(ratios)
  return {
    ratio: ratio.toFixed(3),
    spread: few ? '-' : `${quantile(ratios, 0.25).toFixed(3)}–${quantile(ratios, 0.75).toFixed(3)} (n=${ratios.length})`,
    interval: few ? '-' : `${low.toFixed(3)}–${high.toFixed(3)}`,
    target: target === undefined ? '-' : `<= ${target}`,
    met: target === undefined ? '-' : ratio <= target ? 'yes' : 'NO',
  }
}

/** A row from the medians of both sides and the ratio of each round. */
export function spreadRow(name: string, baseline: number, measured: number, ratios: readonly number[], target?: number): SpreadRow {
  return { case: name, baseline: ms(baseline), measured: ms(measured), ...ratioCells(ratios, target) }
}
