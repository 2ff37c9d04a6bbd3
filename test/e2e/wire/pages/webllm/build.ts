// Bundles the WebLLM agent page and its test worker for the browser with Vite's build API, into a
// temporary folder served to Chromium.
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { build } from 'vite'

export interface BuiltWebllmPages {
  readonly dir: string
  remove(): Promise<void>
}

export async function buildWebllmPages(): Promise<BuiltWebllmPages> {
  const dir = await mkdtemp(join(tmpdir(), 'rtg-webllm-pages-'))
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
      lib: {
        entry: { agent: resolve(import.meta.dirname, 'agent.ts'), worker: resolve(import.meta.dirname, 'worker.ts') },
        formats: ['es'],
        fileName: (_, name) => `${name}.js`,
      },
    },
  })
  await writeFile(join(dir, 'webllm.html'), '<!doctype html><meta charset="utf-8"><title>WebLLM agent</title><script type="module" src="./agent.js"></script>\n')
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) }
}
