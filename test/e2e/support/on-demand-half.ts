// Whether the page script's on-demand half ran: V8's own call counts (precise coverage, over CDP) of
// the function holding it, in any document's copy of page.js. The page is given nothing to see it by.
import type { Page } from 'playwright-core'
import type { Browser } from './browser.ts'

const ON_DEMAND_HALF = 'runOnDemandHalf'

export interface OnDemandWatch {
  /** The tab whose documents are counted. */
  readonly page: Page
  /** How often the on-demand half ran since the last count (V8 starts the counts over on every read); undefined if page.js has no such function. */
  runs(): Promise<number | undefined>
}

/** Opens a new tab of `browser` and counts, from now on, the runs of the on-demand half in it. */
export async function watchOnDemandHalf(browser: Browser): Promise<OnDemandWatch> {
  const page = await browser.context.newPage()
  const cdp = await browser.context.newCDPSession(page)
  await cdp.send('Profiler.enable')
  await cdp.send('Profiler.startPreciseCoverage', { callCount: true, detailed: false })
  return {
    page,
    async runs() {
      const { result } = await cdp.send('Profiler.takePreciseCoverage')
      const counts = result.filter((s) => s.url.endsWith('/page.js')).flatMap((s) => s.functions.filter((f) => f.functionName === ON_DEMAND_HALF).map((f) => f.ranges[0]!.count))
      return counts.length === 0 ? undefined : counts.reduce((a, b) => a + b, 0)
    },
  }
}
