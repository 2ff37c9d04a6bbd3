// A benchmark page built the way `npm run build` builds what ships, served locally and opened in
// Chromium (without the extension): for code that must be timed where it runs, in the browser.
import preact from '@preact/preset-vite'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { build } from 'vite'
import { launch } from '../../test/e2e/support/browser.ts'
import { serve } from '../../test/e2e/support/server.ts'

export interface BuiltPage {
  readonly page: Page
  close(): Promise<void>
}

/** Builds the page whose index.html is in `root`, and opens it at `viewport`. */
export async function openBuiltPage(root: string, viewport = { width: 1200, height: 500 }): Promise<BuiltPage> {
  const outDir = await mkdtemp(join(tmpdir(), 'rtg-bench-page-'))
  // The test runner's NODE_ENV would make the Preact preset add its debug layer and development
  // JSX, which a production build leaves out: time what ships.
  const nodeEnv = process.env.NODE_ENV
  process.env.NODE_ENV = 'production'
  try {
    await build({
      configFile: false,
      mode: 'production',
      logLevel: 'warn',
      root,
      base: './',
      plugins: [preact()],
      build: { outDir, emptyOutDir: true, target: 'es2022' },
    })
  } finally {
    if (nodeEnv === undefined) delete process.env.NODE_ENV
    else process.env.NODE_ENV = nodeEnv
  }
  const server = await serve([outDir])
  const browser = await launch({ extension: false })
  const page = await browser.context.newPage()
  await page.setViewportSize(viewport)
  await page.goto(`${server.origin}/index.html`)
  return {
    page,
    async close() {
      await browser.close()
      await server.close()
      await rm(outDir, { recursive: true, force: true })
    },
  }
}
