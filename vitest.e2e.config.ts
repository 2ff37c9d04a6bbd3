import { defineConfig } from 'vitest/config'

// End-to-end tests: the built extension and playground in real Chromium, one file at a time
// (each launches its own browser; two cores do not take more).
export default defineConfig({
  test: {
    include: ['test/e2e/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    fileParallelism: false,
    // A poll waits for what a browser does next, which a busy machine delays by seconds: it still
    // fails when the thing never happens, only later than the 1-second default would.
    expect: { poll: { timeout: 10_000 } },
  },
})
