// `npm test`: type checks (the tree, then the engine alone), unit tests with coverage, a fresh
// build, then end-to-end tests in Chromium. Stops early, saying how to get Chromium, when there
// is none. Ends with one `N passed, N failed` line over both test runs.
import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
if (!existsSync(chromium)) {
  console.error(
    `npm test: no Chromium at ${chromium}.\n` +
      "The end-to-end tests drive a real Chromium. Install Debian's: sudo apt-get install -y chromium\n" +
      'or point CHROMIUM_PATH at a Chromium or Chrome binary, then run npm test again.',
  )
  process.exit(1)
}

const reports = mkdtempSync(join(tmpdir(), 'rtg-test-'))
const vitest = (name, ...args) => [
  'npx',
  ['vitest', 'run', ...args, '--reporter=default', '--reporter=json', `--outputFile.json=${join(reports, `${name}.json`)}`],
]
const steps = [
  ['type check', 'npx', ['tsc', '-p', '.']],
  // The engine again, on its own: no DOM and no Node types, so it cannot lean on either.
  ['engine type check', 'npx', ['tsc', '-p', 'engine']],
  ['unit tests', ...vitest('unit', '--coverage')],
  ['build', 'node', ['scripts/build.mjs']],
  ['end-to-end tests', ...vitest('e2e', '--config', 'vitest.e2e.config.ts')],
]

let status = 0
for (const [name, cmd, args] of steps) {
  console.log(`\n▶ ${name}`)
  status = spawnSync(cmd, args, { stdio: 'inherit' }).status ?? 1
  if (status !== 0) {
    console.error(`\nnpm test: ${name} failed`)
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
