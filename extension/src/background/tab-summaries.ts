// Every tab's toolbar summary, kept in session storage as well as in memory: Chrome may stop the
// worker at any time, and a restarted worker must go on counting from where the last one was.
// Session storage lives in memory, is cleared with the browser session, and pages cannot read it.
import type { TabBatch, TabSummary } from '../protocol/messages.ts'
import { checkTabSummary } from '../protocol/validate.ts'
import { EMPTY_SUMMARY, summarise } from './tab-summary.ts'

/** The slice of `browser.storage.session` the summaries use. */
export interface SummaryStorage {
  get(key: string): Promise<Record<string, unknown>>
  set(items: Record<string, unknown>): Promise<void>
  remove(key: string): Promise<void>
}

interface Options {
  readonly storage: SummaryStorage
  /** Called with each summary that changed, to show it on the toolbar. */
  readonly show: (tabId: number, summary: TabSummary) => void
}

export interface TabSummaries {
  record(tabId: number, batch: TabBatch): void
  /** The tab is loading a new page: nothing seen yet, whether or not that page ever reports. */
  restart(tabId: number): void
  get(tabId: number): Promise<TabSummary>
  remove(tabId: number): void
}

const keyOf = (tabId: number) => `tab-summary:${tabId}`

export function createTabSummaries({ storage, show }: Options): TabSummaries {
  // One promise per tab, so batches fold in arrival order even while the stored summary loads.
  const summaries = new Map<number, Promise<TabSummary>>()

  async function load(tabId: number): Promise<TabSummary> {
    const stored = await storage.get(keyOf(tabId)).catch(() => ({}) as Record<string, unknown>)
    const checked = checkTabSummary(stored[keyOf(tabId)])
    return checked.ok ? checked.value : EMPTY_SUMMARY
  }

  const current = (tabId: number): Promise<TabSummary> => summaries.get(tabId) ?? load(tabId)

  return {
    record(tabId, batch) {
      const next = current(tabId).then((summary) => {
        const folded = summarise(summary, batch)
        // Written at once: the worker may be stopped any moment. A summary changes only with an
        // agent, a reminder or a page load, never with a plain call, so writes stay few.
        if (folded !== summary && summaries.has(tabId)) {
          show(tabId, folded)
          void storage.set({ [keyOf(tabId)]: folded }).catch(() => undefined)
        }
        return folded
      })
      summaries.set(tabId, next)
    },
    restart(tabId) {
      // After whatever is still folding in: a batch of the old page must not count for the new one.
      const next = current(tabId).then(() => {
        show(tabId, EMPTY_SUMMARY)
        void storage.set({ [keyOf(tabId)]: EMPTY_SUMMARY }).catch(() => undefined)
        return EMPTY_SUMMARY
      })
      summaries.set(tabId, next)
    },
    get: current,
    remove(tabId) {
      summaries.delete(tabId)
      void storage.remove(keyOf(tabId)).catch(() => undefined)
    },
  }
}
