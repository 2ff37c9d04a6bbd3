// The popup's one look at a tab, asked again while the tab's page is still silent. The service worker
// wakes a page that never reported (background/popup-requests.ts) and waits a moment for it, but the
// top frame's relay listens only once its page has loaded and idled (content/index.ts), and its report
// then starts both on-demand halves and a port: in Firefox that often takes longer than the worker
// waits. So the popup draws each answer at once, and asks again a few times, bounded, until the
// answer names the page's origin (a tab without a content script never does).
import type { TabSummary } from '../protocol/messages.ts'

/** Waits before each question asked again; the wake's own calls are spread over about four seconds. */
export const ASK_AGAIN_MS = [500, 1_000, 1_000, 2_000, 3_000] as const

interface FollowOptions {
  readonly ask: () => Promise<TabSummary>
  readonly draw: (summary: TabSummary) => void
  readonly later?: (ms: number) => Promise<void>
}

const sleep = (ms: number) => new Promise<void>((waited) => setTimeout(waited, ms))

/** Resolves with the last answer drawn; rejects only when the first question fails. */
export async function followTabSummary({ ask, draw, later = sleep }: FollowOptions): Promise<TabSummary> {
  let summary = await ask()
  draw(summary)
  for (const wait of ASK_AGAIN_MS) {
    if (summary.pageOrigin !== null) break
    await later(wait)
    // A question asked again that fails leaves the last answer drawn.
    const next = await ask().catch(() => undefined)
    if (next === undefined) break
    summary = next
    draw(summary)
  }
  return summary
}
