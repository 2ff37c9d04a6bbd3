// The bundler plugins that keep the content scripts small and the page's globals untouched.
import { minifySync } from 'vite'
import { at } from './paths.mjs'

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
export const withoutComments = { comments: { legal: true, annotation: false, jsdoc: false } }

/**
 * The shortening, once the bundle is written: the bundler's own pass, which drops the captures and
 * other pure calls a script never uses (the relay's start-up needs few of the engine's), stays on.
 * Asking the bundler to shorten would turn that pass off with the compression.
 */
export const shortened = {
  name: 'shortened',
  generateBundle(_options, bundle) {
    for (const chunk of Object.values(bundle))
      if (chunk.type === 'chunk') chunk.code = minifySync(chunk.fileName, chunk.code, { compress: false, mangle: { keepNames: true }, codegen: { asciiOnly: true, legalComments: 'inline' } }).code
  },
}

/**
 * In an on-demand half, the pattern compiler (picomatch) is loaded by the first `*` pattern compiled
 * (a CommonJS require the bundler runs on first call), not with the half: loading it calls built-ins
 * a page may have replaced by then, and the recommended config and literal tool names never need it.
 */
export const lazyPatternCompiler = {
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
export const privateSerialiser = {
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
