// The worker's wake-up call to a tab's top frame: a panel subscribed with nothing recorded, or the
// popup opened, asks an idle page to report its load. The relay listens for it only once its page
// has loaded (content/index.ts), so a call that finds no listener yet is sent again a few times,
// then dropped: a tab without a content script (a browser page, a store page) never answers.
import type { BackgroundToContent } from '../protocol/messages.ts'

/** Waits before each call sent again: the page's load and an idle moment after it, then give up. */
const RETRY_MS = [250, 1_000, 3_000] as const

interface WakeOptions {
  /** Sends to the tab's top frame; rejects when nothing there listens. */
  readonly send: (tabId: number, message: BackgroundToContent) => Promise<unknown>
  readonly later: (run: () => void, ms: number) => void
}

export function createWakeTopFrame({ send, later }: WakeOptions): (tabId: number, message: BackgroundToContent) => void {
  return (tabId, message) => {
    const attempt = (retry: number): void =>
      void send(tabId, message).catch(() => {
        const wait = RETRY_MS[retry]
        if (wait !== undefined) later(() => attempt(retry + 1), wait)
      })
    attempt(0)
  }
}
