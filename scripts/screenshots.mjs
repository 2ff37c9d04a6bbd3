// `npm run screenshots`: builds everything, then writes the pictures in docs/images/ from the
// build (scripts/screenshots/take-screenshots.ts), so they show what ships, never a mock-up.
// Needs Chromium, as the end-to-end tests do (CHROMIUM_PATH, else /usr/bin/chromium).
import { spawnSync } from 'node:child_process'
import { relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { runnerImport } from 'vite'

const root = resolve(fileURLToPath(import.meta.url), '../..')

const build = spawnSync(process.execPath, [resolve(root, 'scripts/build.mjs')], { stdio: 'inherit' })
if (build.status !== 0) process.exit(build.status ?? 1)

// The test harness is TypeScript: Vite's module runner loads it as the tests' runner does.
const { module } = await runnerImport(resolve(root, 'scripts/screenshots/take-screenshots.ts'), { root, configFile: false, logLevel: 'warn' })
const files = await module.takeScreenshots(resolve(root, 'docs/images'))
for (const file of files) console.log(`wrote ${relative(root, file)}`)
