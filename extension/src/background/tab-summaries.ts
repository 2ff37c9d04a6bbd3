// Every tab's toolbar summary, kept in session storage as well as in memory: Chrome may stop the
// worker at any time, and a restarted worker must go on counting from where the last one was.
// Session storage lives in memory, is cleared with the browser session, and pages cannot read it.
// With each summary goes how far it counted in each relay's stream (stream-marks.ts): a relay sends
// again what the stopped worker did not acknowledge, and what that worker had counted and stored
// must not count twice.
import type { RelaySequence, TabBatch, TabSummary } from '../protocol/messages.ts'
import { checkTabSummary } from '../protocol/validate.ts'
import { createStreamMarks, type StreamMarks } from './stream-marks.ts'
import { EMPTY_SUMMARY, isEmptySummary, summarise } from './tab-summary.ts'

/** The slice of `browser.storage.session` the summaries use. */
export interface SummaryStorage {
  get(keys: string[]): Promise<Record<string, unknown>>
  set(items: Record<string, unknown>): Promise<void>
  remove(keys: string[]): Promise<void>
}

interface Options {
  readonly storage: SummaryStorage
  /** Called with each summary that changed, to show it on the toolbar. */
  readonly show: (tabId: number, summary: TabSummary) => void
}

export interface TabSummaries {
  /** Settles once the batch is counted, and stored if it changed the summary. */
  record(tabId: number, batch: TabBatch, from?: RelaySequence): Promise<void>
  /** The tab is loading a new page: nothing seen yet, whether or not that page ever reports. */
  restart(tabId: number): void
  get(tabId: number): Promise<TabSummary>
  remove(tabId: number): void
}

interface Counted {
  readonly summary: TabSummary
  readonly marks: StreamMarks
  /**
   * Storage could not be read, held an entry that was refused, or refused the last write: it may
   * hold other than this.
   */
  readonly unsure?: boolean
}

/** Nothing seen and no stream counted; `unsure` when storage may say otherwise. */
const nothingSeen = (unsure = false): Counted => ({ summary: EMPTY_SUMMARY, marks: createStreamMarks(), unsure })

/** Nothing seen, no stream counted, and storage known to say so: what a new page starts from. */
const untouched = ({ summary, marks, unsure }: Counted): boolean => !unsure && isEmptySummary(summary) && marks.saved().length === 0

const keyOf = (tabId: number) => `tab-summary:${tabId}`
const marksKeyOf = (tabId: number) => `tab-summary-streams:${tabId}`

export function createTabSummaries({ storage, show }: Options): TabSummaries {
  // One promise per tab, so batches fold in arrival order even while the stored summary loads.
  const counted = new Map<number, Promise<Counted>>()

  async function load(tabId: number): Promise<Counted> {
    const stored = await storage.get([keyOf(tabId), marksKeyOf(tabId)]).catch(() => undefined)
    // Unreadable: storage may hold anything.
    if (stored === undefined) return nothingSeen(true)
    const entry = stored[keyOf(tabId)]
    const checked = checkTabSummary(entry)
    if (checked.ok) return { summary: checked.value, marks: createStreamMarks(stored[marksKeyOf(tabId)]) }
    // Nothing stored is known to be empty; a refused entry is not.
    return nothingSeen(entry !== undefined)
  }

  const current = (tabId: number): Promise<Counted> => counted.get(tabId) ?? load(tabId)

  /**
   * Shows and stores `next`; settles once stored, or refused: the worker goes on either way, and the
   * tab's next page starts over in storage again.
   */
  function keep(tabId: number, next: Counted): Promise<Counted> {
    show(tabId, next.summary)
    return storage.set({ [keyOf(tabId)]: next.summary, [marksKeyOf(tabId)]: next.marks.saved() }).then(
      () => next,
      () => ({ ...next, unsure: true }),
    )
  }

  return {
    record(tabId, batch, from) {
      const next = current(tabId).then((before) => {
        // Counted and stored by the worker before this one, which stopped before acknowledging it.
        if (from && !before.marks.advance(from.stream, from.seq)) return before
        const summary = summarise(before.summary, batch)
        // Stored at once: the worker may be stopped any moment. A summary changes only with an
        // agent, a reminder or a page load, never with a plain call, so writes stay few.
        if (summary === before.summary || !counted.has(tabId)) return before
        return keep(tabId, { summary, marks: before.marks })
      })
      counted.set(tabId, next)
      return next.then(() => undefined)
    },
    restart(tabId) {
      // After whatever is still folding in: a batch of the old page must not count for the new one.
      // A tab that saw nothing is left as it is: the toolbar already shows it so, and nothing is
      // stored to forget. Pages without an agent are most pages: their loads set and store nothing.
      const next = current(tabId).then((before) => (untouched(before) ? before : keep(tabId, nothingSeen())))
      counted.set(tabId, next)
    },
    get: (tabId) => current(tabId).then(({ summary }) => summary),
    remove(tabId) {
      counted.delete(tabId)
      void storage.remove([keyOf(tabId), marksKeyOf(tabId)]).catch(() => undefined)
    },
  }
}
