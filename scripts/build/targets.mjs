// What `node scripts/build.mjs` can build, one function a target: the engine as an ES module, the
// Node entry that guards a process's fetch, both as an installable package, the extension for Chrome and for Firefox from the same output, and
// the playground.
import { build } from 'vite'
import preact from '@preact/preset-vite'
import { resolve } from 'node:path'
import { cp, rm } from 'node:fs/promises'
import { manifestFor } from '../../extension/manifest/generate.mjs'
import { buildEnginePackage } from '../engine-package.mjs'
import { writeGreyIcon } from '../grey-icons.mjs'
import { script, scriptWithOnDemandHalf } from './content-script.mjs'
import { at, dist, quiet, readJson, root, writeJson } from './paths.mjs'

/** RTG_PANEL_MAX_BYTES: a smaller panel byte budget, for a test build only. */
function panelMaxBytes() {
  const value = process.env.RTG_PANEL_MAX_BYTES
  if (value === undefined || value === '') return undefined
  if (!/^\d+$/.test(value)) throw new Error(`RTG_PANEL_MAX_BYTES must be a whole number of bytes, got "${value}"`)
  return Number(value)
}

export const targets = {
  async engine() {
    await build({
      ...quiet,
      build: {
        outDir: dist('engine'),
        emptyOutDir: true,
        target: 'es2022',
        minify: false,
        lib: { entry: at('engine/index.ts'), formats: ['es'], fileName: () => 'index.js' },
      },
    })
  },
  // `repeat-tool-guard/register` (docs/node.md): one ES module for Node 20+, the engine inlined;
  // `@opentelemetry/api` stays the app's own, imported only if it has it.
  async node() {
    await build({
      ...quiet,
      ssr: { noExternal: true, target: 'node' },
      build: {
        outDir: dist('node'),
        emptyOutDir: true,
        target: 'node20',
        minify: false,
        ssr: at('node/register.ts'),
        rollupOptions: { external: [/^node:/, '@opentelemetry/api'], output: { format: 'es', entryFileNames: 'register.js' } },
      },
    })
  },
  async extension() {
    const out = dist('extension')
    const firefox = dist('firefox')
    await rm(out, { recursive: true, force: true })
    await rm(firefox, { recursive: true, force: true })
    // Pages (panel, devtools) and the service worker, with the icons from public/.
    await build({
      ...quiet,
      root: at('extension'),
      base: './',
      publicDir: at('extension/public'),
      plugins: [preact()],
      // Unset in every shipped build; the end-to-end flood test sets it for its own copy.
      define: { __RTG_PANEL_MAX_BYTES__: JSON.stringify(panelMaxBytes()) ?? 'undefined' },
      build: {
        outDir: out,
        emptyOutDir: false,
        target: 'es2022',
        minify: false,
        modulePreload: false,
        rollupOptions: {
          input: {
            panel: at('extension/panel.html'),
            devtools: at('extension/devtools.html'),
            popup: at('extension/popup.html'),
            // The panel as a page for `npx repeat-tool-guard inspect` (docs/node-bridge.md).
            inspect: at('extension/inspect.html'),
            background: at('extension/src/background/index.ts'),
          },
          output: { entryFileNames: (c) => (c.name === 'background' ? 'background.js' : 'assets/[name]-[hash].js') },
        },
      },
    })
    for (const size of [16, 32, 48, 128]) await writeGreyIcon(at(`extension/public/icons/icon-${size}.png`), resolve(out, `icons/icon-${size}-grey.png`))
    // The engine's built-ins (and the serialiser's configurations) are made by the start-up half, at
    // document_start, before any page script can replace them; the on-demand half uses those.
    await scriptWithOnDemandHalf('extension/src/page', out, 'page.js', 'RepeatToolGuardPage', ['engine/intrinsics.ts', 'engine/stringifiers.ts'])
    await scriptWithOnDemandHalf('extension/src/content', out, 'content.js', 'RepeatToolGuardContent')
    // The same files for both browsers; only the manifest differs.
    await cp(out, firefox, { recursive: true })
    const source = await readJson(at('extension/manifest/manifest.json'))
    const { version } = await readJson(at('package.json'))
    await writeJson(resolve(out, 'manifest.json'), manifestFor('chrome', source, version))
    await writeJson(resolve(firefox, 'manifest.json'), manifestFor('firefox', source, version))
  },
  // `repeat-tool-guard inspect` (docs/node-bridge.md, "Without the extension"): one ES module for
  // Node 20+ with ws inlined, and the built panel page beside it. Needs the extension target first.
  async inspect() {
    await build({
      ...quiet,
      ssr: { noExternal: true, target: 'node' },
      build: {
        outDir: dist('inspect'),
        emptyOutDir: true,
        target: 'node20',
        minify: false,
        ssr: at('node/inspect/cli.ts'),
        rollupOptions: { external: [/^node:/], output: { format: 'es', entryFileNames: 'cli.js' } },
      },
    })
    await cp(dist('extension'), dist('inspect/inspector'), { recursive: true })
  },
  async playground() {
    await build({
      ...quiet,
      root: at('playground'),
      base: './',
      publicDir: false,
      plugins: [preact()],
      // The in-page agent, and agents whose loop runs on a server (a useChat page on the scripted chat server).
      build: { outDir: dist('playground'), emptyOutDir: true, target: 'es2022', rollupOptions: { input: { index: at('playground/index.html'), 'server-loop': at('playground/server-loop.html') } } },
    })
    // The scripted model: a service worker at the root, so its scope is the whole playground.
    await script('playground/model/sw.ts', dist('playground'), 'sw.js', 'PlaygroundScriptedModel')
  },
  // Last: the package takes the engine, the Node entry and the inspector as built.
  async 'engine-package'() {
    await buildEnginePackage({ root, engineBuild: dist('engine'), nodeBuild: dist('node'), inspectBuild: dist('inspect'), out: dist('engine-package') })
  },
}
