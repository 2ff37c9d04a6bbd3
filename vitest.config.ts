import { defineConfig } from 'vitest/config'
import preact from '@preact/preset-vite'

// Unit tests: the engine in Node, panel and playground components under happy-dom.
export default defineConfig({
  plugins: [preact()],
  test: {
    include: ['test/unit/**/*.test.{ts,tsx}'],
    setupFiles: ['test/unit/support/happy-dom-gaps.ts'],
    // Files and the tests in each in a random order every run, so no test can lean on another's
    // state; Vitest prints the seed, and RTG_TEST_SEED=<seed> runs that order again.
    sequence: { shuffle: true, ...(process.env.RTG_TEST_SEED ? { seed: Number(process.env.RTG_TEST_SEED) } : {}) },
    coverage: {
      provider: 'v8',
      include: ['engine/**/*.ts'],
      // `engine/**` alone would also take in test/unit/engine/**.
      exclude: ['engine/types.ts', 'engine/**/types.ts', 'test/**'],
      reporter: ['text-summary', 'text'],
      // Every engine file fully covered: the run fails below it.
      thresholds: { perFile: true, lines: 100, branches: 100, functions: 100, statements: 100 },
    },
  },
})
