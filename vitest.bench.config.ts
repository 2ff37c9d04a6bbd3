import { defineConfig } from 'vitest/config'
import preact from '@preact/preset-vite'

// Benchmarks report ratios against a baseline measured in the same run; they assert nothing
// about time. At the end of the run, bench/RESULTS.md is written from the tables they keep.
export default defineConfig({
  plugins: [preact()],
  test: {
    include: ['bench/**/*.bench.{ts,tsx}'],
    reporters: ['default', './bench/support/results-reporter.ts'],
    testTimeout: 600_000,
    fileParallelism: false,
    // The memory benchmarks collect garbage on demand.
    execArgv: ['--expose-gc'],
  },
})
