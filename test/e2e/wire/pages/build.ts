// Bundles test pages (the SDK agents, the WebLLM agent and its worker) for the browser with Vite's
// build API, into a temporary folder served next to the mock model.
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { build } from 'vite'

export interface BuiltPages {
  readonly dir: string
  remove(): Promise<void>
}

interface PageSources {
  /** Each bundle's name (it is written as `<name>.js`) and its source, relative to this folder. */
  readonly entries: Readonly<Record<string, string>>
  /** The page, written as `<page>.html`, and the bundle it loads. */
  readonly page: string
  readonly script: string
  readonly title: string
}

export async function buildPages({ entries, page, script, title }: PageSources): Promise<BuiltPages> {
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
      lib: {
        entry: Object.fromEntries(Object.entries(entries).map(([name, source]) => [name, resolve(import.meta.dirname, source)])),
        formats: ['es'],
        fileName: (_, name) => `${name}.js`,
      },
    },
  })
  await writeFile(join(dir, `${page}.html`), `<!doctype html><meta charset="utf-8"><title>${title}</title><script type="module" src="./${script}.js"></script>\n`)
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) }
}

/** Bundles `pages/<name>.ts` into `<name>.js`, loaded by `<name>.html`. */
export const buildAgentPages = (name = 'agents') => buildPages({ entries: { [name]: `${name}.ts` }, page: name, script: name, title: 'SDK agents' })

/** The WebLLM agent page (`webllm.html`, loading `agent.js`) and its stand-in worker (`worker.js`). */
export const buildWebllmPages = () => buildPages({ entries: { agent: 'webllm/agent.ts', worker: 'webllm/worker.ts' }, page: 'webllm', script: 'agent', title: 'WebLLM agent' })
