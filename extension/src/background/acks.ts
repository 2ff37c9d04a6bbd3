// The worker's acknowledgements to one content port (BackgroundToRelay `ack`). A message is
// acknowledged only once what it changed is safe from a worker stop: its toolbar summary stored
// (tab-summaries.ts), so a relay that sees the acknowledgement may forget it. In the port's order,
// whatever each message waits for, and one acknowledgement for a burst: each covers every message
// before it.

export interface Acks {
  /** `seq` was handled; acknowledged once `stored` (if given) settles and every earlier one was. */
  handled(seq: number, stored?: Promise<unknown>): void
}

export function createAcks(send: (seq: number) => void, later: (run: () => void, ms: number) => void): Acks {
  let chain: Promise<unknown> = Promise.resolve()
  let due = 0
  let scheduled = false

  function acknowledge(seq: number): void {
    due = Math.max(due, seq)
    if (scheduled) return
    scheduled = true
    later(() => {
      scheduled = false
      send(due)
    }, 0)
  }

  return {
    handled(seq, stored) {
      chain = chain.then(() => stored?.catch(() => undefined)).then(() => acknowledge(seq))
    },
  }
}
