// The OpenAI Responses answers a page fetches, in Chromium with the built extension and in a
// Chromium without it (response-reading-suite.ts says what is tested). And in Chromium, a body the
// page never reads is held back by the browser (it keeps some 70 to 90 MB and stops reading the
// connection), with the extension as without it: nothing reads it for the page.
import type { Page } from 'playwright-core'
import { beforeAll, expect, test } from 'vitest'
import type { BigStream } from '../support/big-stream.ts'
import { useStage } from '../support/stage.ts'
import { installPageReading } from './pages/response-reads.ts'
import { describeResponseReading, LONG_STORY, routeResponseReading, runPath, type Which } from './response-reading-suite.ts'

/** Far more than Chromium holds back for a body nobody reads. */
const TOTAL = 256 * 1024 * 1024

let big: BigStream
const stage = useStage({ plain: true, routes: (server) => void (big = routeResponseReading(server, TOTAL)) })

const pages = {} as Record<Which, Page>
beforeAll(async () => {
  pages.extension = await stage.browser.context.newPage()
  pages.plain = await stage.plain.context.newPage()
  for (const page of Object.values(pages)) {
    await page.goto(`${stage.server.origin}/blank`)
    await page.evaluate(installPageReading)
  }
})

// Playwright types a page function's argument as it arrives in the page: the same plain values here.
describeResponseReading(() => ({ mock: stage.mock, big, run: (which, fn, arg) => pages[which].evaluate(fn as never, arg) }))

test.each(['extension', 'plain'] as const)('%s: a long stream never read: the browser holds the server back, nothing reads it for the page', async (which) => {
  const unread = `${which}-unread`
  const read = `${which}-read`
  const page = pages[which]
  await page.evaluate(
    async ([path, body]) => {
      const response = await fetch(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
      Object.assign(window, { kept: response })
    },
    [runPath(unread), LONG_STORY] as const,
  )
  // Another answer as long, read to its end by the page: the first would have been read by now too.
  const bytes = await page.evaluate(
    async ([path, body]) => {
      const response = await fetch(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
      const reader = response.body!.getReader()
      let total = 0
      for (let next = await reader.read(); !next.done; next = await reader.read()) total += next.value.byteLength
      return total
    },
    [runPath(read), LONG_STORY] as const,
  )
  expect([bytes, big.run(read)!.finished]).toEqual([big.run(read)!.written, true])
  const held = big.run(unread)!
  expect(held.finished).toBe(false)
  expect(held.written, `${held.written} bytes written`).toBeLessThan(TOTAL / 2)
  // The page lets it go: the connection closes.
  await page.evaluate(() => (window as unknown as { kept: Response }).kept.body!.cancel())
  expect((await big.closed(unread)).finished).toBe(false)
})
