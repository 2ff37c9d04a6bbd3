// The built-ins the page script relies on, captured at document_start before any page script can
// replace them: a page that later patches `Date.now` or `setTimeout` neither sees nor breaks the
// bridge. (Its messages travel over the private channel to the relay: relay-channel.ts.)

export interface PageBuiltins {
  readonly now: () => number
  readonly microtask: (run: () => void) => void
  readonly later: (run: () => void, ms: number) => void
}

export function captureBuiltins(win: Window & typeof globalThis): PageBuiltins {
  const dateNow = win.Date.now.bind(win.Date)
  const queueMicrotask = win.queueMicrotask.bind(win)
  const setTimeout = win.setTimeout.bind(win)
  return {
    now: dateNow,
    microtask: queueMicrotask,
    later: (run, ms) => void setTimeout(run, ms),
  }
}
