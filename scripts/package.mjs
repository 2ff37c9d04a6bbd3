// `npm run package`: the store packages of the built extension, `repeat-tool-guard-chrome-<version>.zip`
// and `repeat-tool-guard-firefox-<version>.zip`, zipped by web-ext as the add-on store expects, and
// the engine's npm tarball, all in dist/packages/. Run after `node scripts/build.mjs`.
import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import webExt from 'web-ext'

const root = resolve(fileURLToPath(import.meta.url), '../..')
const dist = (...p) => resolve(process.env.RTG_DIST_DIR ?? resolve(root, 'dist'), ...p)
const { version } = JSON.parse(await readFile(resolve(root, 'package.json'), 'utf8'))
const out = dist('packages')

for (const browser of ['chrome', 'firefox']) {
  const sourceDir = dist(browser === 'chrome' ? 'extension' : 'firefox')
  const manifest = resolve(sourceDir, 'manifest.json')
  if (!existsSync(manifest)) throw new Error(`no build at ${sourceDir}: run npm run build first`)
  const built = JSON.parse(await readFile(manifest, 'utf8')).version
  if (built !== version) throw new Error(`${sourceDir} is version ${built}, package.json says ${version}: run npm run build again`)
  const { extensionPath } = await webExt.cmd.build(
    { sourceDir, artifactsDir: out, filename: `repeat-tool-guard-${browser}-${version}.zip`, overwriteDest: true },
    { showReadyMessage: false, shouldExitProgram: false },
  )
  console.log(`packaged ${extensionPath}`)
}

const { stdout } = await promisify(execFile)('npm', ['pack', dist('engine-package'), '--pack-destination', out, '--silent'])
console.log(`packaged ${resolve(out, stdout.trim())}`)
