// What a page reports towards the panel: the page script sends its panel events to the relay
// over their private channel, where no page script can listen, so the test subscribes to the tab
// at the service worker, as a panel does, and reads them there.
import type { Page } from 'playwright-core'
import { expect } from 'vitest'
import type { PanelEvent } from '../../../extension/src/protocol/events.ts'
import { tapPanelPort, type PanelTap } from '../extension/panel-tap.ts'
import type { Browser } from './browser.ts'

const taps = new WeakMap<Page, PanelTap>()

/**
 * Opens `url` in a new tab of `browser`, waits until the page has defined the global `ready` (its
 * script ran), if given, and subscribes to the tab's events (from its load on). The subscriber's
 * extension page closes with the page. In a browser without the extension, nothing reports.
 */
export async function openReportingPage(browser: Browser, url: string, ready?: string): Promise<Page> {
  const page = await browser.context.newPage()
  await page.goto(url)
  if (ready !== undefined) await page.waitForFunction((name) => name in window, ready)
  if (browser.extensionId === undefined) return page
  const tabId = await browser.tabId(page)
  const subscriber = await browser.openPanel(tabId)
  page.once('close', () => void subscriber.close().catch(() => undefined))
  taps.set(page, await tapPanelPort(subscriber, tabId))
  return page
}

/** The events `page` reported, as the service worker delivered them to a panel of its tab. */
export const reportedEvents = async (page: Page): Promise<PanelEvent[]> => (await taps.get(page)?.events()) ?? []

/** The events of the wire agents among `events` (zero-code mode's agents, `wire:` ids). */
export const wireOf = (events: PanelEvent[]): PanelEvent[] => events.filter((e) => (e.type === 'agent' ? e.agent.kind === 'wire' : 'agentId' in e && e.agentId.startsWith('wire:')))

/**
 * The wire reminders `page` reported, each as its call's number and why it was withheld, once they
 * are `expected`. Panel events leave in batches on a timer (extension/src/page/batcher.ts), which a
 * background tab may slow to once a second: the last may arrive after the page's run has ended.
 */
export async function expectWireReminders(page: Page, expected: readonly (readonly [number, string | undefined])[]): Promise<void> {
  const reminders = async () => wireOf(await reportedEvents(page)).flatMap((e) => (e.type === 'reminder' ? [[e.seq, e.withheld]] : []))
  await expect.poll(reminders).toEqual(expected)
}

/** How many wire events of `type` `page` has reported so far: polled, as events leave in batches. */
export const wireCount = async (page: Page, type: PanelEvent['type']): Promise<number> => wireOf(await reportedEvents(page)).filter((e) => e.type === type).length

/**
 * Waits until `page` has reported `reminders` wire reminders and `calls` wire calls, each polled on
 * its own: a call after the last reminder may leave in a later batch than the reminder.
 */
export async function expectWireCounts(page: Page, { reminders, calls }: { readonly reminders: number; readonly calls: number }): Promise<void> {
  await expect.poll(() => wireCount(page, 'reminder')).toBe(reminders)
  await expect.poll(() => wireCount(page, 'call')).toBe(calls)
}
