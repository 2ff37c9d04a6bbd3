// A manual clock for code that takes `now`, `microtask` and `later` as options.
export class FakeClock {
  time = 0
  private microtasks: (() => void)[] = []
  private timers: { at: number; run: () => void }[] = []

  readonly now = () => this.time
  readonly microtask = (run: () => void) => void this.microtasks.push(run)
  readonly later = (run: () => void, ms: number) => void this.timers.push({ at: this.time + ms, run })

  /** Ends the current task: runs every queued microtask, including those they queue. */
  drainMicrotasks(): void {
    while (this.microtasks.length > 0) this.microtasks.shift()!()
  }

  /** Moves time forward, firing due timers in order (each followed by its microtasks). */
  advance(ms: number): void {
    const end = this.time + ms
    this.drainMicrotasks()
    for (;;) {
      this.timers.sort((a, b) => a.at - b.at)
      const next = this.timers[0]
      if (!next || next.at > end) break
      this.timers.shift()
      this.time = Math.max(this.time, next.at)
      next.run()
      this.drainMicrotasks()
    }
    this.time = end
  }

  get pendingTimers(): number {
    return this.timers.length
  }
}
