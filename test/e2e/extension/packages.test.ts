// `npm run package` after a build: the two store packages, named with package.json's version,
// each holding its own browser's build, file for file, with that browser's manifest.
import { execFile } from 'node:child_process'
import { readdir, readFile, rm } from 'node:fs/promises'
import { join, relative, resolve } from 'node:path'
import { promisify } from 'node:util'
import { expect, test } from 'vitest'
import { DIST_DIR, EXTENSION_DIR } from '../support/browser.ts'
import { FIREFOX_EXTENSION_DIR } from '../support/firefox.ts'
import { zipEntries } from '../support/zip-entries.ts'

const ROOT = resolve(import.meta.dirname, '../../..')
const PACKAGES = join(DIST_DIR, 'packages')

/** Every file of the build in `dir`, by its path inside the build. */
async function buildFiles(dir: string): Promise<Map<string, Buffer>> {
  const entries = (await readdir(dir, { recursive: true, withFileTypes: true })).filter((e) => e.isFile())
  return new Map(await Promise.all(entries.map(async (e) => [relative(dir, join(e.parentPath, e.name)), await readFile(join(e.parentPath, e.name))] as const)))
}

interface Manifest {
  background: { service_worker?: string; scripts?: string[] }
  browser_specific_settings?: { gecko?: { id?: string } }
}

const manifestOf = (files: Map<string, Buffer>) => JSON.parse(files.get('manifest.json')?.toString('utf8') ?? 'null') as Manifest

test('writes the Chrome and Firefox packages, versioned, each with its own browser’s build, file for file', async () => {
  await rm(PACKAGES, { recursive: true, force: true })
  await promisify(execFile)(process.execPath, [join(ROOT, 'scripts/package.mjs')], { cwd: ROOT, env: { ...process.env, RTG_DIST_DIR: DIST_DIR } })
  const { version } = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as { version: string }
  const zips = { chrome: `repeat-tool-guard-chrome-${version}.zip`, firefox: `repeat-tool-guard-firefox-${version}.zip` }
  expect((await readdir(PACKAGES)).sort()).toEqual([`repeat-tool-guard-${version}.tgz`, zips.chrome, zips.firefox])

  const chrome = zipEntries(await readFile(join(PACKAGES, zips.chrome)))
  const firefox = zipEntries(await readFile(join(PACKAGES, zips.firefox)))
  // Chrome runs a service worker; Firefox MV3 runs background scripts and needs its add-on id.
  expect(manifestOf(chrome).background).toEqual({ service_worker: expect.any(String), type: 'module' })
  expect(manifestOf(chrome).browser_specific_settings).toBeUndefined()
  expect(manifestOf(firefox).background).toEqual({ scripts: [expect.any(String)], type: 'module' })
  expect(manifestOf(firefox).browser_specific_settings?.gecko?.id).toEqual(expect.stringMatching(/\S/))

  for (const [files, dir, zip] of [
    [chrome, EXTENSION_DIR, zips.chrome],
    [firefox, FIREFOX_EXTENSION_DIR, zips.firefox],
  ] as const) {
    const built = await buildFiles(dir)
    expect([...files.keys()].sort(), zip).toEqual([...built.keys()].sort())
    const differing = [...built].filter(([path, data]) => !files.get(path)?.equals(data)).map(([path]) => path)
    expect(differing, zip).toEqual([])
  }
})
