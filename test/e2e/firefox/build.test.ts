// The two builds come from the same output: every file but the manifest is identical, and the
// manifests differ only where a browser requires it, with package.json's version in both.
import { readdir, readFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { expect, test } from 'vitest'
import { EXTENSION_DIR } from '../support/browser.ts'
import { FIREFOX_EXTENSION_DIR } from '../support/firefox.ts'

const ROOT = resolve(import.meta.dirname, '../../..')
const readJson = async (path: string): Promise<Record<string, unknown>> => JSON.parse(await readFile(path, 'utf8'))
const files = async (dir: string) =>
  (await readdir(dir, { recursive: true, withFileTypes: true }))
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name).slice(dir.length + 1))
    .sort()

test('Chrome and Firefox get the same files; only the manifest differs', async () => {
  const chrome = await files(EXTENSION_DIR)
  expect(await files(FIREFOX_EXTENSION_DIR)).toEqual(chrome)
  for (const file of chrome.filter((f) => f !== 'manifest.json')) expect((await readFile(join(FIREFOX_EXTENSION_DIR, file))).equals(await readFile(join(EXTENSION_DIR, file))), file).toBe(true)
})

test('the manifests: package.json version, a service worker for Chrome, background scripts and a gecko id for Firefox', async () => {
  const { version } = await readJson(join(ROOT, 'package.json'))
  const chrome = await readJson(join(EXTENSION_DIR, 'manifest.json'))
  const firefox = await readJson(join(FIREFOX_EXTENSION_DIR, 'manifest.json'))
  expect(chrome.version).toBe(version)
  expect(chrome.background).toEqual({ service_worker: 'background.js', type: 'module' })
  const { background, browser_specific_settings, ...firefoxRest } = firefox
  const { background: _, minimum_chrome_version, ...chromeRest } = chrome
  expect(minimum_chrome_version).toBe('111')
  expect(firefoxRest).toEqual(chromeRest)
  expect(background).toEqual({ scripts: ['background.js'], type: 'module' })
  expect(browser_specific_settings).toEqual({
    gecko: { id: 'repeat-tool-guard@repeat-tool-guard.dev', strict_min_version: '140.0', data_collection_permissions: { required: ['none'] } },
    gecko_android: { strict_min_version: '142.0' },
  })
})
