// Bundles the SDK agents for the browser with Vite's build API, into a temporary folder served
// next to the mock model.
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { build } from 'vite'

export interface BuiltPages {
  readonly dir: string
  remove(): Promise<void>
}

/** `entry`: the page module of this folder to bundle, served as `<entry>.html` with `<entry>.js`. */
export async function buildAgentPages(entry = 'agents'): Promise<BuiltPages> {
  const dir = await mkdtemp(join(tmpdir(), 'rtg-wire-pages-'))
  await build({
    configFile: false,
    logLevel: 'warn',
    define: { 'process.env.NODE_ENV': '"production"' },
    build: {
      outDir: dir,
      emptyOutDir: false,
      target: 'es2022',
      minify: false,
      reportCompressedSize: false,
      lib: { entry: resolve(import.meta.dirname, `${entry}.ts`), formats: ['es'], fileName: () => `${entry}.js` },
    },
  })
  await writeFile(
    join(dir, `${entry}.html`),
    `<!doctype html><meta charset="utf-8"><title>SDK agents</title><script type="module" src="./${entry}.js"></script>\n`,
  )
  await writeFile(join(dir, 'blank.html'), '<!doctype html><meta charset="utf-8"><title>blank</title>\n')
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) }
}
