// Agents of one run take turns, one step each, in the order they asked: a lead and its subagent
// interleave step by step, and the interleaving is the same on every run.

export interface Turn {
  /** Hands the turn to the next agent in line; calling it again does nothing. */
  release(): void
  /** Gives the turn away while `work` settles (a lead waiting for its subagent), then takes it back. */
  yieldUntil<T>(work: Promise<T>): Promise<T>
}

const nothing = () => {}

export class Turns {
  private tail: Promise<void> = Promise.resolve()

  async take(): Promise<Turn> {
    let free = await this.acquire()
    const turn: Turn = {
      release() {
        free()
        free = nothing
      },
      yieldUntil: async (work) => {
        turn.release()
        try {
          return await work
        } finally {
          free = await this.acquire()
        }
      },
    }
    return turn
  }

  /** Waits for everyone who asked before; resolves with the function that lets the next one go. */
  private async acquire(): Promise<() => void> {
    let free!: () => void
    const held = new Promise<void>((resolve) => (free = resolve))
    const before = this.tail
    this.tail = before.then(() => held)
    await before
    return free
  }
}
