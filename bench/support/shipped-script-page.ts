// A bench page that runs the extension's built MAIN-world script (dist/extension/page.js, exactly
// as shipped) after a script of its own has kept the natives the page script hooks, so native and
// hooked run side by side in one page, in Chromium (without the extension) from a local server,
// through Chromium's real network stack. The server answers `/api/...` with a small JSON response.
import { existsSync } from 'node:fs'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { expect } from 'vitest'
import { EXTENSION_DIR, launch } from '../../test/e2e/support/browser.ts'
import { serve, type TestServer } from '../../test/e2e/support/server.ts'
import { apiRoute } from './api-route.ts'
import { installRounds } from './rounds.ts'

export interface ShippedScriptPage {
  readonly page: Page
  close(): Promise<void>
}

interface PageOptions {
  /** Writes more files next to the page (`dir` is served at the root). */
  readonly prepare?: (dir: string) => Promise<void>
  /** More Chromium switches. */
  readonly args?: readonly string[]
  /** Adds routes of the bench's own; they answer before `/api/...`. */
  readonly route?: (server: TestServer) => void
}

/** Opens `html` (which loads `/page.js`) as `/bench.html`, with the timing loops of rounds.ts installed. */
export async function openShippedScriptPage(html: string, options: PageOptions = {}): Promise<ShippedScriptPage> {
  expect(existsSync(join(EXTENSION_DIR, 'page.js')), `no built extension at ${EXTENSION_DIR}: run npm run build`).toBe(true)
  const dir = await mkdtemp(join(tmpdir(), 'rtg-bench-page-'))
  await options.prepare?.(dir)
  await writeFile(join(dir, 'bench.html'), html)
  const server = await serve([dir, EXTENSION_DIR])
  options.route?.(server)
  server.route(apiRoute)
  const browser = await launch({ extension: false, ...(options.args && { args: options.args }) })
  const close = async () => {
    await browser.close()
    await server.close()
    await rm(dir, { recursive: true, force: true })
  }
  try {
    const page = await browser.context.newPage()
    await page.goto(`${server.origin}/bench.html`)
    await installRounds(page)
    return { page, close }
  } catch (error) {
    await close()
    throw error
  }
}

const big = JSON.stringify({ event: 'upload', items: Array.from({ length: 8_000 }, (_, i) => ({ id: i, label: `item ${i}`, tags: ['a', 'b'] })) })

/** The requests a page makes that are not LLM requests: their names and bodies (null: a GET). */
export const PASS_THROUGH_CASES = [
  ['GET', null],
  ['small JSON POST (analytics beacon)', JSON.stringify({ event: 'click', target: 'button#save', at: 1 })],
  [`${Math.round(big.length / 1024)} KB JSON POST`, big],
] as const
