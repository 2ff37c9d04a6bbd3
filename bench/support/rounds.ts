// The timing loops of the browser benches, run inside the page (they are installed there as
// `window.benchRounds`): batches of each side take turns, so a slow moment of the machine falls on
// every side of a ratio, and the page's clock (0.1 ms, unless cross-origin isolated) is read only
// around whole batches.
import type { Page } from 'playwright-core'

/**
 * Each round times every arm once, starting one arm further on than the round before; the first
 * `warmUp` rounds are dropped. What each arm's timing gave, round by round, in the arms' order.
 */
async function interleaved<T>(arms: readonly (() => Promise<T>)[], rounds: number, warmUp: number): Promise<T[][]> {
  const times: T[][] = arms.map(() => [])
  for (let round = 0; round < rounds + warmUp; round++) {
    for (let n = 0; n < arms.length; n++) {
      const arm = (round + n) % arms.length
      const took = await arms[arm]!()
      if (round >= warmUp) times[arm]!.push(took)
    }
  }
  return times
}

/** Each round times both sides, `a` first in even rounds and `b` first in odd ones: their timings, round by round. */
async function alternating(a: () => Promise<number>, b: () => Promise<number>, rounds: number): Promise<[number[], number[]]> {
  const times: [number[], number[]] = [[], []]
  for (let round = 0; round < rounds; round++) {
    if (round % 2 === 0) {
      times[0].push(await a())
      times[1].push(await b())
    } else {
      times[1].push(await b())
      times[0].push(await a())
    }
  }
  return times
}

export interface BenchRounds {
  readonly interleaved: typeof interleaved
  readonly alternating: typeof alternating
}

/** What the page's code reads the loops from: `(window as unknown as RoundsWindow).benchRounds`. */
export type RoundsWindow = { benchRounds: BenchRounds }

/** The script that defines `window.benchRounds` (its functions are self-contained: they are sent as their source). */
export const benchRoundsSource = (): string => `window.benchRounds = { interleaved: ${interleaved.toString()}, alternating: ${alternating.toString()} }`

/** Defines `window.benchRounds` in `page`. */
export async function installRounds(page: Page): Promise<void> {
  await page.evaluate(benchRoundsSource())
}
