import { defineConfig } from 'vitest/config'
import preact from '@preact/preset-vite'

// Benchmarks report ratios against a baseline measured in the same run; they assert nothing
// about time.
export default defineConfig({
  plugins: [preact()],
  test: {
    include: ['bench/**/*.bench.{ts,tsx}'],
    testTimeout: 600_000,
    fileParallelism: false,
    // The memory benchmarks collect garbage on demand.
    execArgv: ['--expose-gc'],
  },
})
