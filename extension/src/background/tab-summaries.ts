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
  readonly later: (run: () => void, ms: number) => void
  /** Writes to storage are gathered for this long, so an agent's burst costs one write. */
  readonly persistDelayMs?: number
}

export interface TabSummaries {
  record(tabId: number, batch: TabBatch): void
  get(tabId: number): Promise<TabSummary>
  remove(tabId: number): void
}

const keyOf = (tabId: number) => `tab-summary:${tabId}`

export function createTabSummaries({ storage, show, later, persistDelayMs = 200 }: Options): TabSummaries {
  // One promise per tab, so batches fold in arrival order even while the stored summary loads.
  const summaries = new Map<number, Promise<TabSummary>>()
  const pendingWrites = new Set<number>()

  async function load(tabId: number): Promise<TabSummary> {
    const stored = await storage.get(keyOf(tabId)).catch(() => ({}) as Record<string, unknown>)
    const checked = checkTabSummary(stored[keyOf(tabId)])
    return checked.ok ? checked.value : EMPTY_SUMMARY
  }

  const current = (tabId: number): Promise<TabSummary> => summaries.get(tabId) ?? load(tabId)

  function persist(tabId: number): void {
    if (pendingWrites.has(tabId)) return
    pendingWrites.add(tabId)
    later(() => {
      pendingWrites.delete(tabId)
      const summary = summaries.get(tabId)
      if (summary) void summary.then((s) => storage.set({ [keyOf(tabId)]: s })).catch(() => undefined)
    }, persistDelayMs)
  }

  return {
    record(tabId, batch) {
      const next = current(tabId).then((summary) => {
        const folded = summarise(summary, batch)
        if (folded !== summary) {
          show(tabId, folded)
          persist(tabId)
        }
        return folded
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
