// What a page reports towards the panel: the page script posts its inspector events to the window
// (PAGE_SOURCE), where a listener of the test's own collects them.
import type { Page } from 'playwright-core'
import type { InspectorEvent } from '../../../extension/src/protocol/events.ts'
import { PAGE_SOURCE } from '../../../extension/src/protocol/messages.ts'
import type { Browser } from './browser.ts'

/**
 * Opens `url` in a new tab of `browser`, waits until the page has defined the global `ready` (its
 * script ran), if given, and from then on collects the events the page reports.
 */
export async function openReportingPage(browser: Browser, url: string, ready?: string): Promise<Page> {
  const page = await browser.context.newPage()
  await page.goto(url)
  if (ready !== undefined) await page.waitForFunction((name) => name in window, ready)
  await page.evaluate((source) => {
    const seen: unknown[] = []
    Object.assign(window, { seenEvents: seen })
    window.addEventListener('message', (e) => {
      if (e.data?.source === source) seen.push(...e.data.events)
    })
  }, PAGE_SOURCE)
  return page
}

/** The events `page` reported since it was opened with openReportingPage. */
export const reportedEvents = (page: Page) => page.evaluate(() => (window as unknown as { seenEvents: InspectorEvent[] }).seenEvents)
