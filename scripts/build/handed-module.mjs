// A module the start-up half of a content script evaluated, handed to the on-demand half
// (see content-script.mjs) instead of being evaluated again.
import { build } from 'vite'
import { basename } from 'node:path'
import { at, quiet } from './paths.mjs'

/**
 * The module `path` as the on-demand half sees it: its plugin resolves the module to the exports of
 * `parameter[basename]` (see scriptWithOnDemandHalf), which the loader fills with `names`.
 */
export async function handedModule(path, parameter) {
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
