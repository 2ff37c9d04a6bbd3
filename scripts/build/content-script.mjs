// Classic scripts with everything inlined (content scripts cannot import chunks), and the content
// scripts built in two halves in one file.
import { build } from 'vite'
import { handedModule } from './handed-module.mjs'
import { at, quiet } from './paths.mjs'
import { lazyPatternCompiler, privateSerialiser, shortened, withoutComments } from './plugins.mjs'

/** A classic script with everything inlined: content scripts cannot import chunks. */
export const script = (entry, outDir, fileName, name, plugins = []) =>
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
export async function scriptWithOnDemandHalf(folder, outDir, fileName, name, handed = []) {
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
