// What the extension costs every page, agent or not: the load time of the same locally served page
// with the built extension, against an extension of the same shape whose two content scripts are
// empty (the floor any extension with document_start scripts in every frame pays), and against no
// extension at all. The three browsers take turns on every round (the order rotating), so load from
// elsewhere falls on all alike; each ratio is the median of the per-round ratios, with its spread.
// Nothing here asserts on time: a missed target shows as `NO` in the `met` column.
import { cp, mkdtemp, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { CDPSession, Page } from 'playwright-core'
import { afterAll, beforeAll, it } from 'vitest'
import { EXTENSION_DIR, launch, type Browser } from '../test/e2e/support/browser.ts'
import { serve, type TestServer } from '../test/e2e/support/server.ts'
import { median, quantile } from './support/quantile.ts'
import type { SpreadRow } from './support/spread-row.ts'

const FRAMES = 20
/** Rounds per page, after the warm-up rounds that are not counted (first loads fill caches). */
const ROUNDS = { plain: 300, frames: 40 } as const
const WARM_UP = 3
const TARGET = 1.05
const CONTENT_SCRIPTS = ['page.js', 'content.js'] as const

type Setup = 'extension' | 'floor' | 'none'
interface Timing {
  /** Navigation start to the top page's load event (its frames loaded). */
  readonly load: number
  /** Navigation start to the top page's first script. */
  readonly firstScript: number
  /**
   * Chromium's own count of the milliseconds its renderer spent running script during the load
   * (`ScriptDuration`): less at the mercy of other processes than a wall-clock time.
   */
  readonly script: number
}

const FIRST_SCRIPT = '<script>window.firstScriptAt = performance.now()</script>'
const PAGES = {
  'plain.html': `<!doctype html><title>plain</title>${FIRST_SCRIPT}<p>A page without an agent.</p>`,
  'frames.html': `<!doctype html><title>frames</title>${FIRST_SCRIPT}${Array.from({ length: FRAMES }, (_, i) => `<iframe src="leaf.html?${i}"></iframe>`).join('')}`,
  'leaf.html': '<!doctype html><title>leaf</title><p>A same-origin frame.</p>',
}

let pagesDir: string
let floorDir: string
let server: TestServer
const browsers = new Map<Setup, { readonly browser: Browser; readonly page: Page; readonly cdp: CDPSession }>()

beforeAll(async () => {
  pagesDir = await mkdtemp(join(tmpdir(), 'rtg-page-load-'))
  for (const [name, html] of Object.entries(PAGES)) await writeFile(join(pagesDir, name), html)
  // The floor: the built extension with its two content scripts emptied; manifest, worker and
  // pages as shipped.
  floorDir = await mkdtemp(join(tmpdir(), 'rtg-floor-'))
  await cp(EXTENSION_DIR, floorDir, { recursive: true })
  for (const script of CONTENT_SCRIPTS) await writeFile(join(floorDir, script), '')
  server = await serve([pagesDir])
  for (const [setup, options] of [
    ['extension', {}],
    ['floor', { extensionDir: floorDir }],
    ['none', { extension: false }],
  ] as const) {
    const browser = await launch(options)
    const page = await browser.context.newPage()
    const cdp = await browser.context.newCDPSession(page)
    await cdp.send('Performance.enable')
    browsers.set(setup, { browser, page, cdp })
  }
})

afterAll(async () => {
  for (const { browser } of browsers.values()) await browser.close()
  await server?.close()
  for (const dir of [pagesDir, floorDir]) if (dir) await rm(dir, { recursive: true, force: true })
})

async function scriptMs(cdp: CDPSession): Promise<number> {
  const { metrics } = await cdp.send('Performance.getMetrics')
  return (metrics.find((m) => m.name === 'ScriptDuration')?.value ?? Number.NaN) * 1000
}

async function timeLoad({ page, cdp }: { readonly page: Page; readonly cdp: CDPSession }, url: string): Promise<Timing> {
  // From a blank page: the count starts over with the renderer of the previous document.
  await page.goto('about:blank')
  const before = await scriptMs(cdp)
  await page.goto(url, { waitUntil: 'load' })
  const script = (await scriptMs(cdp)) - before
  const times = await page.evaluate(() => {
    const [navigation] = performance.getEntriesByType('navigation') as PerformanceNavigationTiming[]
    return { load: navigation!.loadEventStart, firstScript: (window as unknown as { firstScriptAt: number }).firstScriptAt }
  })
  return { ...times, script }
}

/** Every setup loads `page` once per round, in an order that rotates from round to round. */
async function rounds(page: keyof typeof ROUNDS): Promise<Map<Setup, Timing[]>> {
  const setups = [...browsers.keys()]
  const timings = new Map<Setup, Timing[]>(setups.map((s) => [s, []]))
  for (let round = 0; round < WARM_UP + ROUNDS[page]; round++) {
    for (let i = 0; i < setups.length; i++) {
      const setup = setups[(round + i) % setups.length]!
      const timing = await timeLoad(browsers.get(setup)!, `${server.origin}/${page}.html?round=${round}`)
      if (round >= WARM_UP) timings.get(setup)!.push(timing)
    }
  }
  return timings
}


function row(name: string, baseline: readonly number[], measured: readonly number[], target?: number): SpreadRow {
  const ratios = measured.map((m, i) => m / baseline[i]!)
  const ratio = median(ratios)
  return {
    case: name,
    baseline: `${median(baseline).toFixed(1)} ms`,
    measured: `${median(measured).toFixed(1)} ms`,
    ratio: ratio.toFixed(3),
    spread: `${quantile(ratios, 0.25).toFixed(3)}–${quantile(ratios, 0.75).toFixed(3)} (n=${ratios.length})`,
    target: target === undefined ? '-' : `<= ${target}`,
    met: target === undefined ? '-' : ratio <= target ? 'yes' : 'NO',
  }
}

it('costs a page at most 5% more load time than empty content scripts do', async () => {
  const rows: SpreadRow[] = []
  for (const [page, label] of [['plain', 'a plain page'], ['frames', `a page with ${FRAMES} same-origin iframes`]] as const) {
    const timings = await rounds(page)
    const of = (setup: Setup, key: keyof Timing) => timings.get(setup)!.map((t) => t[key])
    rows.push(
      row(`${label}: load, extension vs floor`, of('floor', 'load'), of('extension', 'load'), TARGET),
      row(`  load, extension vs no extension (info)`, of('none', 'load'), of('extension', 'load')),
      row(`  load, floor vs no extension (info)`, of('none', 'load'), of('floor', 'load')),
      row(`  first script, extension vs floor (info)`, of('floor', 'firstScript'), of('extension', 'firstScript')),
      row(`  first script, extension vs no extension (info)`, of('none', 'firstScript'), of('extension', 'firstScript')),
      // The floor runs next to no script: its ratio says little, the two times say it all.
      row(`  renderer script time, extension vs floor (info)`, of('floor', 'script'), of('extension', 'script')),
    )
  }
  console.log('\npage load (ratio: median of the per-round ratios; spread: 25th–75th percentile of the rounds)')
  console.table(rows)

  const bytes = await Promise.all(CONTENT_SCRIPTS.map(async (script) => ({ script, extension: (await stat(join(EXTENSION_DIR, script))).size, floor: 0 })))
  console.log('bytes each content script adds to every frame')
  console.table(bytes)
})
