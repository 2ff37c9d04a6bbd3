// The spread of per-round ratios, which the browser benchmarks report next to their median.

/** The value at fraction `at` of the sorted values (0.5: the median). */
export const quantile = (values: readonly number[], at: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * at))]!
export const median = (values: readonly number[]) => quantile(values, 0.5)
