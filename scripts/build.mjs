// Builds every shipped artifact with Vite: the engine as an ES module, the extension's
// self-contained content scripts and its pages, and the playground.
// Usage: node scripts/build.mjs [engine|extension|playground ...]   (default: all)
import { build } from 'vite'
import preact from '@preact/preset-vite'
import { fileURLToPath } from 'node:url'
import { resolve } from 'node:path'
import { rm } from 'node:fs/promises'
import { writeGreyIcon } from './grey-icons.mjs'

const root = resolve(fileURLToPath(import.meta.url), '../..')
const at = (...p) => resolve(root, ...p)
// RTG_DIST_DIR moves the whole output, so parallel builds (and their browsers) never share files.
const dist = (...p) => resolve(process.env.RTG_DIST_DIR ?? at('dist'), ...p)
const quiet = { logLevel: 'warn', configFile: false }

/** A classic script with everything inlined: content scripts cannot import chunks. */
const script = (entry, outDir, fileName, name) =>
  build({
    ...quiet,
    build: {
      outDir,
      emptyOutDir: false,
      target: 'es2022',
      minify: false,
      lib: { entry: at(entry), formats: ['iife'], name, fileName: () => fileName },
    },
  })

/** RTG_PANEL_MAX_BYTES: a smaller panel byte budget, for a test build only. */
function panelMaxBytes() {
  const value = process.env.RTG_PANEL_MAX_BYTES
  if (value === undefined || value === '') return undefined
  if (!/^\d+$/.test(value)) throw new Error(`RTG_PANEL_MAX_BYTES must be a whole number of bytes, got "${value}"`)
  return Number(value)
}

const targets = {
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
  async extension() {
    const out = dist('extension')
    await rm(out, { recursive: true, force: true })
    // Pages (panel, devtools) and the service worker, with the manifest and icons from public/.
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
            background: at('extension/src/background/index.ts'),
          },
          output: { entryFileNames: (c) => (c.name === 'background' ? 'background.js' : 'assets/[name]-[hash].js') },
        },
      },
    })
    for (const size of [16, 32, 48, 128])
      await writeGreyIcon(at(`extension/public/icons/icon-${size}.png`), resolve(out, `icons/icon-${size}-grey.png`))
    await script('extension/src/page/index.ts', out, 'page.js', 'RepeatToolGuardPage')
    await script('extension/src/content/index.ts', out, 'content.js', 'RepeatToolGuardContent')
  },
  async playground() {
    await build({
      ...quiet,
      root: at('playground'),
      base: './',
      publicDir: false,
      plugins: [preact()],
      build: { outDir: dist('playground'), emptyOutDir: true, target: 'es2022' },
    })
    // The scripted model: a service worker at the root, so its scope is the whole playground.
    await script('playground/model/sw.ts', dist('playground'), 'sw.js', 'PlaygroundScriptedModel')
  },
}

const wanted = process.argv.slice(2)
for (const name of wanted.length ? wanted : Object.keys(targets)) {
  if (!targets[name]) throw new Error(`unknown build target "${name}"; known: ${Object.keys(targets).join(', ')}`)
  const t0 = performance.now()
  await targets[name]()
  console.log(`built ${name} in ${Math.round(performance.now() - t0)} ms`)
}
