// `npm run package` after a build: the two store packages, named with package.json's version,
// each holding every file of its build (a zip's central directory names its files in the clear).
import { execFile } from 'node:child_process'
import { readdir, readFile, rm } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { expect, test } from 'vitest'
import { DIST_DIR, EXTENSION_DIR } from '../support/browser.ts'
import { FIREFOX_EXTENSION_DIR } from '../support/firefox.ts'

const ROOT = resolve(import.meta.dirname, '../../..')
const PACKAGES = join(DIST_DIR, 'packages')

test('writes the Chrome and Firefox packages, versioned, each with its whole build', async () => {
  await rm(PACKAGES, { recursive: true, force: true })
  await promisify(execFile)(process.execPath, [join(ROOT, 'scripts/package.mjs')], { cwd: ROOT, env: { ...process.env, RTG_DIST_DIR: DIST_DIR } })
  const { version } = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as { version: string }
  const zips = { chrome: `repeat-tool-guard-chrome-${version}.zip`, firefox: `repeat-tool-guard-firefox-${version}.zip` }
  expect((await readdir(PACKAGES)).sort()).toEqual([`repeat-tool-guard-${version}.tgz`, zips.chrome, zips.firefox])
  for (const [zip, dir] of [[zips.chrome, EXTENSION_DIR], [zips.firefox, FIREFOX_EXTENSION_DIR]] as const) {
    const archive = (await readFile(join(PACKAGES, zip))).toString('latin1')
    const built = (await readdir(dir, { recursive: true, withFileTypes: true })).filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name).slice(dir.length + 1))
    expect(built.filter((file) => !archive.includes(file)), zip).toEqual([])
  }
})
