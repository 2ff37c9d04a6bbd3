// `npm test`: type checks (the tree, then the engine alone), the linter and the formatter, unit
// tests with coverage, a fresh build, then end-to-end tests in Chromium and Firefox ESR (web-ext
// lint of the Firefox build among them). Stops early, saying how to get a browser, when one is
// missing. Ends with one `N passed, N failed` line over both runs.
import { spawnSync } from 'node:child_process'
import { randomInt } from 'node:crypto'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const browsers = [
  { name: 'Chromium', path: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', variable: 'CHROMIUM_PATH', apt: 'chromium', other: 'a Chromium or Chrome binary' },
  { name: 'Firefox', path: process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr', variable: 'FIREFOX_PATH', apt: 'firefox-esr', other: 'a Firefox 140 or later binary' },
]
for (const b of browsers) {
  if (existsSync(b.path)) continue
  console.error(
    `npm test: no ${b.name} at ${b.path}.\n` +
      `The end-to-end tests drive a real ${b.name}. Install Debian's: sudo apt-get install -y ${b.apt}\n` +
      `or point ${b.variable} at ${b.other}, then run npm test again.`,
  )
  process.exit(1)
}

// The unit tests run in a shuffled order (vitest.config.ts): the seed is said up front and again
// after a failure, and RTG_TEST_SEED=<seed> runs the same order again.
const seed = process.env.RTG_TEST_SEED ?? String(randomInt(1, 2 ** 31))
if (!/^\d+$/.test(seed)) {
  console.error(`npm test: RTG_TEST_SEED must be a whole number, got "${seed}"`)
  process.exit(1)
}
console.log(`unit tests in a shuffled order, seed ${seed}`)

const reports = mkdtempSync(join(tmpdir(), 'rtg-test-'))
const vitest = (name, ...args) => ['npx', ['vitest', 'run', ...args, '--reporter=default', '--reporter=json', `--outputFile.json=${join(reports, `${name}.json`)}`]]
const steps = [
  ['type check', 'npx', ['tsc', '-p', '.']],
  // The engine again, on its own: no DOM and no Node types, so it cannot lean on either.
  ['engine type check', 'npx', ['tsc', '-p', 'engine']],
  // Lint rules (the import boundaries among them) and formatting, as `npm run lint` (biome.jsonc).
  ['lint', 'npx', ['biome', 'ci', '--error-on-warnings', '.']],
  ['unit tests', ...vitest('unit', '--coverage'), { RTG_TEST_SEED: seed }],
  ['build', 'node', ['scripts/build.mjs']],
  ['end-to-end tests', ...vitest('e2e', '--config', 'vitest.e2e.config.ts')],
]

let status = 0
for (const [name, cmd, args, env = {}] of steps) {
  console.log(`\n▶ ${name}`)
  status = spawnSync(cmd, args, { stdio: 'inherit', env: { ...process.env, ...env } }).status ?? 1
  if (status !== 0) {
    console.error(`\nnpm test: ${name} failed`)
    if ('RTG_TEST_SEED' in env) console.error(`the same order again: RTG_TEST_SEED=${seed} npm test (or RTG_TEST_SEED=${seed} npx vitest run)`)
    break
  }
}

let passed = 0
let failed = 0
for (const name of ['unit', 'e2e']) {
  const file = join(reports, `${name}.json`)
  if (!existsSync(file)) continue
  const report = JSON.parse(readFileSync(file, 'utf8'))
  passed += report.numPassedTests
  failed += report.numFailedTests
}
rmSync(reports, { recursive: true, force: true })
console.log(`\n${passed} passed, ${failed} failed`)
process.exit(status !== 0 ? status : failed > 0 ? 1 : 0)
