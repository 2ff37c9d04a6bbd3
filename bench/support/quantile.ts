// The spread of per-round ratios, which the browser benchmarks report next to their median.

const sorted = (values: readonly number[]) => [...values].sort((a, b) => a - b)

/** The value at fraction `at` of the sorted values (0.5: the median). */
export const quantile = (values: readonly number[], at: number) => sorted(values)[Math.min(values.length - 1, Math.floor(values.length * at))]!
export const median = (values: readonly number[]) => quantile(values, 0.5)

/**
 * Where the median of rounds like these falls 95 times in 100, from the order statistics alone (no
 * assumption about the rounds' distribution): a median above a target by less than this interval's
 * half-width is not a miss the run can tell from noise, and neither is one below it a margin.
 */
export function medianInterval(values: readonly number[]): readonly [number, number] {
  const all = sorted(values)
  const reach = 1.96 * Math.sqrt(all.length)
  const low = Math.max(0, Math.floor((all.length - reach) / 2))
  const high = Math.min(all.length - 1, Math.ceil((all.length + reach) / 2))
  return [all[low]!, all[high]!]
}
