import { defineConfig } from 'vitest/config'

// End-to-end tests: the built extension and playground in real Chromium, one file at a time
// (each launches its own browser; two cores do not take more).
export default defineConfig({
  test: {
    include: ['test/e2e/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    fileParallelism: false,
  },
})
