// What the extension costs every page, agent or not: the load time of the same locally served page
// with the built extension, against an extension of the same shape whose two content scripts are
// empty (the floor any extension with document_start scripts in every frame pays), and against no
// extension at all. The browsers take turns on every round (the order rotating), so load from
// elsewhere falls on all alike; each ratio is the median of the per-round ratios, with its spread.
// One browser can run a few percent faster or slower than another of the same build for as long as
// it lives (its processes, its profile's caches), so the rounds are taken in blocks, each with
// every browser launched afresh, and a second floor browser times the floor against itself: what
// that control row strays from 1 is how far this run can tell a ratio from noise.
// Nothing here asserts on time: a missed target shows as `NO` in the `met` column.
import { cp, mkdtemp, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { CDPSession, Page } from 'playwright-core'
import { afterAll, beforeAll, it } from 'vitest'
import { EXTENSION_DIR, launch, type Browser, type LaunchOptions } from '../test/e2e/support/browser.ts'
import { serve, type TestServer } from '../test/e2e/support/server.ts'
import { perRoundRow as row } from './support/per-round-row.ts'
import { keepForResults, type ResultRow } from './support/results.ts'
import type { SpreadRow } from './support/spread-row.ts'

const FRAMES = 20
/** Rounds per page, after each block's warm-up rounds that are not counted (first loads fill caches). */
const ROUNDS = { plain: 240, frames: 120 } as const
/** Blocks per page, each with browsers launched for it alone. */
const BLOCKS = 6
const WARM_UP = 3
const TARGET = 1.05
const CONTENT_SCRIPTS = ['page.js', 'content.js'] as const

const SETUPS = ['extension', 'floor', 'control', 'none'] as const
type Setup = (typeof SETUPS)[number]
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
type Session = { readonly browser: Browser; readonly page: Page; readonly cdp: CDPSession }

beforeAll(async () => {
  pagesDir = await mkdtemp(join(tmpdir(), 'rtg-page-load-'))
  for (const [name, html] of Object.entries(PAGES)) await writeFile(join(pagesDir, name), html)
  // The floor: the built extension with its two content scripts emptied; manifest, worker and
  // pages as shipped.
  floorDir = await mkdtemp(join(tmpdir(), 'rtg-floor-'))
  await cp(EXTENSION_DIR, floorDir, { recursive: true })
  for (const script of CONTENT_SCRIPTS) await writeFile(join(floorDir, script), '')
  server = await serve([pagesDir])
})

afterAll(async () => {
  await server?.close()
  for (const dir of [pagesDir, floorDir]) if (dir) await rm(dir, { recursive: true, force: true })
})

/** A browser of every setup, launched for one block of rounds. */
async function launchAll(): Promise<Map<Setup, Session>> {
  const sessions = new Map<Setup, Session>()
  const options: Record<Setup, LaunchOptions> = { extension: {}, floor: { extensionDir: floorDir }, control: { extensionDir: floorDir }, none: { extension: false } }
  for (const setup of SETUPS) {
    const browser = await launch(options[setup])
    const page = await browser.context.newPage()
    const cdp = await browser.context.newCDPSession(page)
    await cdp.send('Performance.enable')
    sessions.set(setup, { browser, page, cdp })
  }
  return sessions
}

async function scriptMs(cdp: CDPSession): Promise<number> {
  const { metrics } = await cdp.send('Performance.getMetrics')
  return (metrics.find((m) => m.name === 'ScriptDuration')?.value ?? Number.NaN) * 1000
}

async function timeLoad({ page, cdp }: Session, url: string): Promise<Timing> {
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
  const timings = new Map<Setup, Timing[]>(SETUPS.map((setup) => [setup, []]))
  for (let block = 0; block < BLOCKS; block++) {
    const sessions = await launchAll()
    try {
      for (let round = 0; round < WARM_UP + ROUNDS[page] / BLOCKS; round++) {
        for (let i = 0; i < SETUPS.length; i++) {
          const setup = SETUPS[(round + i) % SETUPS.length]!
          const timing = await timeLoad(sessions.get(setup)!, `${server.origin}/${page}.html?block=${block}&round=${round}`)
          if (round >= WARM_UP) timings.get(setup)!.push(timing)
        }
      }
    } finally {
      for (const { browser } of sessions.values()) await browser.close()
    }
  }
  return timings
}

const results: ResultRow[] = []
keepForResults('page load: the extension vs empty content scripts (Chromium)', () => results)

const PAGE_LABELS = { plain: 'a plain page', frames: `a page with ${FRAMES} same-origin iframes` } as const

/**
 * A test's time limit, one test per page: the page with frames has taken longer than the bench
 * config's 600 s on a two-core machine (its loads take several times the plain page's).
 */
const PAGE_TIME_LIMIT_MS = 1_200_000

for (const page of ['plain', 'frames'] as const) {
  it(`costs ${PAGE_LABELS[page]} at most 5% more load time than empty content scripts do`, { timeout: PAGE_TIME_LIMIT_MS }, async () => {
    const timings = await rounds(page)
    const of = (setup: Setup, key: keyof Timing) => timings.get(setup)!.map((t) => t[key])
    const rows: SpreadRow[] = [
      row(`${PAGE_LABELS[page]}: load, extension vs floor`, of('floor', 'load'), of('extension', 'load'), TARGET),
      row(`  load, control: the floor against a second floor browser (info)`, of('floor', 'load'), of('control', 'load')),
      row(`  load, extension vs no extension (info)`, of('none', 'load'), of('extension', 'load')),
      row(`  load, floor vs no extension (info)`, of('none', 'load'), of('floor', 'load')),
      row(`  first script, extension vs floor (info)`, of('floor', 'firstScript'), of('extension', 'firstScript')),
      row(`  first script, extension vs no extension (info)`, of('none', 'firstScript'), of('extension', 'firstScript')),
      // The floor runs next to no script: its ratio says little, the two times say it all.
      row(`  renderer script time, extension vs floor (info)`, of('floor', 'script'), of('extension', 'script')),
    ]
    console.log('\npage load (ratio: median of the per-round ratios; spread: 25th–75th percentile of the rounds; interval: where the median falls 95 times in 100)')
    console.table(rows)
    results.push(...rows)
  })
}

it('reports the bytes each content script adds to every frame', async () => {
  const bytes = await Promise.all(CONTENT_SCRIPTS.map(async (script) => ({ script, extension: (await stat(join(EXTENSION_DIR, script))).size, floor: 0 })))
  console.log('bytes each content script adds to every frame')
  console.table(bytes)
  results.push(
    ...bytes.map(({ script, extension, floor }) => ({
      case: `${script}: bytes in every frame (info)`,
      baseline: String(floor),
      measured: String(extension),
      ratio: '-',
      interval: '-',
      target: '-',
      met: '-',
    })),
  )
})
