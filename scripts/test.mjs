// `npm test`: type check, unit tests with coverage, a fresh build, then end-to-end tests in
// Chromium. Stops early, saying how to get Chromium, when there is none.
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'

const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
if (!existsSync(chromium)) {
  console.error(
    `npm test: no Chromium at ${chromium}.\n` +
      'The end-to-end tests drive a real Chromium. Install Debian\'s: sudo apt-get install -y chromium\n' +
      'or point CHROMIUM_PATH at a Chromium or Chrome binary, then run npm test again.',
  )
  process.exit(1)
}

const steps = [
  ['type check', 'npx', ['tsc', '-p', '.']],
  ['unit tests', 'npx', ['vitest', 'run', '--coverage']],
  ['build', 'node', ['scripts/build.mjs']],
  ['end-to-end tests', 'npx', ['vitest', 'run', '--config', 'vitest.e2e.config.ts']],
]
for (const [name, cmd, args] of steps) {
  console.log(`\n▶ ${name}`)
  const { status } = spawnSync(cmd, args, { stdio: 'inherit' })
  if (status !== 0) {
    console.error(`\nnpm test: ${name} failed`)
    process.exit(status ?? 1)
  }
}
