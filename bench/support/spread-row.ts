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

/** A row from the medians of both sides and the ratio of each round; without a target it only informs. */
export function spreadRow(name: string, baseline: number, measured: number, ratios: readonly number[], target?: number): SpreadRow {
  const ratio = median(ratios)
  const met = target === undefined ? '-' : ratio <= target ? 'yes' : 'NO'
  const spread = ratios.length < 4 ? '-' : `${quantile(ratios, 0.25).toFixed(3)}–${quantile(ratios, 0.75).toFixed(3)} (n=${ratios.length})`
  const interval = ratios.length < 4 ? '-' : medianIntervalText(ratios)
  return { case: name, baseline: ms(baseline), measured: ms(measured), ratio: ratio.toFixed(3), spread, interval, target: target === undefined ? '-' : `<= ${target}`, met }
}

/** The median's 95% interval of `ratios`, as the tables print it. */
export function medianIntervalText(ratios: readonly number[]): string {
  const [low, high] = medianInterval(ratios)
  return `${low.toFixed(3)}–${high.toFixed(3)}`
}
