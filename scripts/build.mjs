// Builds every shipped artifact with Vite: the engine as an ES module (and as an installable
// package), the extension for Chrome and for Firefox from the same output, and the playground.
// Usage: node scripts/build.mjs [engine|engine-package|extension|playground ...]   (default: all)
import { build, minifySync } from 'vite'
import preact from '@preact/preset-vite'
import { fileURLToPath } from 'node:url'
import { basename, resolve } from 'node:path'
import { cp, readFile, rm, writeFile } from 'node:fs/promises'
import { manifestFor } from '../extension/manifest/generate.mjs'
import { buildEnginePackage } from './engine-package.mjs'

// What ships is the production build (Preact without its debug layer), whatever NODE_ENV the caller
// runs under: a test runner that starts `npm start` passes its own 'test' down.
process.env.NODE_ENV = 'production'
import { writeGreyIcon } from './grey-icons.mjs'

const root = resolve(fileURLToPath(import.meta.url), '../..')
const at = (...p) => resolve(root, ...p)
// RTG_DIST_DIR moves the whole output, so parallel builds (and their browsers) never share files.
const dist = (...p) => resolve(process.env.RTG_DIST_DIR ?? at('dist'), ...p)
const quiet = { logLevel: 'warn', configFile: false }
const readJson = async (path) => JSON.parse(await readFile(path, 'utf8'))
const writeJson = (path, value) => writeFile(path, `${JSON.stringify(value, null, 2)}\n`)

/**
 * Every frame the user opens takes in both content scripts again, and what that costs grows with
 * their bytes even where none of the code runs (page-load.bench.ts). So they ship as small as the
 * code can be written without changing it: no comments but licence notices, no layout, and local
 * names shortened, but every function and class keeps its own (a stack trace still reads, and the
 * tests find the on-demand half by its name). Not compressed: that rewrites code (it may move a
 * built-in's capture to where it is called, after the page could have replaced it). And in ASCII
 * alone, every other character escaped: one character past Latin-1 (a `…` in a text) has the
 * browser hold the whole source at two bytes a character.
 */
const withoutComments = { comments: { legal: true, annotation: false, jsdoc: false } }

/**
 * The shortening, once the bundle is written: the bundler's own pass, which drops the captures and
 * other pure calls a script never uses (the relay's start-up needs few of the engine's), stays on.
 * Asking the bundler to shorten would turn that pass off with the compression.
 */
const shortened = {
  name: 'shortened',
  generateBundle(_options, bundle) {
    for (const chunk of Object.values(bundle))
      if (chunk.type === 'chunk')
        chunk.code = minifySync(chunk.fileName, chunk.code, { compress: false, mangle: { keepNames: true }, codegen: { asciiOnly: true, legalComments: 'inline' } }).code
  },
}

/** A classic script with everything inlined: content scripts cannot import chunks. */
const script = (entry, outDir, fileName, name, plugins = []) =>
  build({
    ...quiet,
    plugins: [...plugins, privateSerialiser, shortened],
    build: {
      outDir,
      emptyOutDir: false,
      target: 'es2022',
      minify: false,
      rolldownOptions: { output: withoutComments },
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

/**
 * A content script in two halves, still one file. `folder/on-demand.ts` is bundled on its own and
 * put inside a function that the first call of `onDemand()` (from `folder/deferred.ts`) runs: V8
 * only skims the body of a function that has not run, so a frame that never needs that half pays
 * for reading it, not for compiling or running it. A function declaration, not a parenthesised
 * function expression, which V8 would compile at once. Modules both halves use are in both, but for
 * the `handed` ones: modules the start-up half evaluated at document_start (what they made then,
 * before any page script could replace a built-in), whose exports the loader hands to the on-demand
 * half, which reads them from that argument instead of evaluating the modules again. The loader
 * imports them by name and builds the object it hands over on that first call: a module namespace
 * object would be built in every frame at document_start, one accessor per export. Never through
 * a global: the page would see it.
 */
async function scriptWithOnDemandHalf(folder, outDir, fileName, name, handed = []) {
  const parameter = 'handedByStartUp'
  const modules = await Promise.all(handed.map((path) => handedModule(path, parameter)))
  const plugins = [...modules.map(({ plugin }) => plugin), lazyPatternCompiler, privateSerialiser]
  const [half] = await build({
    ...quiet,
    plugins,
    build: {
      write: false,
      target: 'es2022',
      minify: false,
      // Text the content script's own build reads and writes again: only that build shortens and escapes.
      rolldownOptions: { output: withoutComments },
      lib: { entry: at(folder, 'on-demand.ts'), formats: ['iife'], name: 'onDemandHalf', fileName: () => 'on-demand.js' },
    },
  })
  const { code } = half.output[0]
  // Each handed module's exports under its own prefix (`intrinsics$now`): two modules may share a name.
  const imports = modules.map(({ key, module, names }) => `import { ${names.map((n) => `${n} as ${key}$${n}`).join(', ')} } from ${JSON.stringify(module)}\n`)
  const handedObject = `{ ${modules.map(({ key, names }) => `${key}: { ${names.map((n) => `${n}: ${key}$${n}`).join(', ')} }`).join(', ')} }`
  const loader = `${imports.join('')}function runOnDemandHalf(${parameter}) {\n${code}\nreturn onDemandHalf\n}\nlet loaded\nexport const onDemand = () => (loaded ??= runOnDemandHalf(${handedObject}))\n`
  const deferred = at(folder, 'deferred.ts')
  const onDemandLoader = { name: 'on-demand-half', enforce: 'pre', load: (id) => (id === deferred ? loader : null) }
  await script(`${folder}/index.ts`, outDir, fileName, name, [onDemandLoader])
}

/**
 * In an on-demand half, the pattern compiler (picomatch) is loaded by the first `*` pattern compiled
 * (a CommonJS require the bundler runs on first call), not with the half: loading it calls built-ins
 * a page may have replaced by then, and the recommended config and literal tool names never need it.
 */
const lazyPatternCompiler = {
  name: 'lazy-pattern-compiler',
  enforce: 'pre',
  transform(code, id) {
    if (id !== at('engine/patterns.ts')) return null
    const eager = "import picomatch from 'picomatch'\n"
    if (!code.includes(eager)) throw new Error('engine/patterns.ts no longer imports picomatch as the build expects')
    return code.replace(eager, "const picomatch = { makeRe: (source, options) => require('picomatch').makeRe(source, options) }\n")
  },
}

/**
 * The serialiser (safe-stable-stringify) keeps its one instance on the global object, under
 * `Symbol.for('safe-stable-stringify@3.0.0')`, so that its CommonJS and ES entries share it. In a
 * content script the global object is the page's window: every page would gain that property (and
 * a page bundling the same release would be handed the extension's instance), and defining it on
 * the window costs every frame. Here its modules keep it on an object of their own instead.
 */
const serialiserHome = '\0serialiser-home'
const privateSerialiser = {
  name: 'private-serialiser',
  enforce: 'pre',
  resolveId: (id) => (id === serialiserHome ? id : null),
  load: (id) => (id === serialiserHome ? 'export const home = {}\n' : null),
  transform(code, id) {
    if (!/[\\/]node_modules[\\/]safe-stable-stringify[\\/](index\.js|esm[\\/]wrapper\.mjs)$/.test(id)) return null
    const shared = /const sharedGlobal = (\/\*\*[^*]*\*\/ )?\(\s*globalThis\s*\)/
    if (!shared.test(code)) throw new Error(`${id} no longer keeps its instance where the build expects (const sharedGlobal = globalThis)`)
    return `import { home as serialiserHome } from ${JSON.stringify(serialiserHome)}\n${code.replace(shared, 'const sharedGlobal = serialiserHome')}`
  },
}

/**
 * The module `path` as the on-demand half sees it: its plugin resolves the module to the exports of
 * `parameter[basename]` (see scriptWithOnDemandHalf), which the loader fills with `names`.
 */
async function handedModule(path, parameter) {
  const module = at(path)
  const key = basename(path).replace(/\.ts$/, '')
  // Its export names, as the bundler sees them.
  const [bundled] = await build({ ...quiet, build: { write: false, minify: false, lib: { entry: module, formats: ['es'], fileName: () => 'handed.js' } } })
  const names = bundled.output[0].exports
  if (!names?.length) throw new Error(`${path} exports nothing to hand over`)
  const id = `\0handed-by-start-up:${key}`
  const plugin = {
    name: `handed-by-start-up:${key}`,
    enforce: 'pre',
    async resolveId(source, importer) {
      if (!importer) return null
      const resolved = await this.resolve(source, importer, { skipSelf: true })
      return resolved?.id === module ? id : null
    },
    load: (loading) => (loading === id ? `export const { ${names.join(', ')} } = ${parameter}.${key}\n` : null),
  }
  return { plugin, key, module, names }
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
  async 'engine-package'() {
    await buildEnginePackage({ root, engineBuild: dist('engine'), out: dist('engine-package') })
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
            background: at('extension/src/background/index.ts'),
          },
          output: { entryFileNames: (c) => (c.name === 'background' ? 'background.js' : 'assets/[name]-[hash].js') },
        },
      },
    })
    for (const size of [16, 32, 48, 128])
      await writeGreyIcon(at(`extension/public/icons/icon-${size}.png`), resolve(out, `icons/icon-${size}-grey.png`))
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
