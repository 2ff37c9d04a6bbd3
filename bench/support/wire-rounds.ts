// The wire bench's rounds in Node: baseline and measured arms timed in turns, and an arm that
// inspects one body with fresh wire guards.
import type { GuardConfig } from '../../engine/index.ts'
import type { WireGuard } from '../../engine/wire/index.ts'
import { median } from './quantile.ts'
import { spreadRow, type SpreadRow } from './spread-row.ts'

export const PER_ROUND = 5

/** What one side of a comparison runs: prepared for a round (untimed), then run `PER_ROUND` times. */
export type Arm = () => (index: number) => void

/**
 * Baseline and measured batches take turns, alternating which goes first, so a slow moment of the
 * machine falls on both; each round gives a ratio. Returns the row of the table.
 */
export function timeRounds(name: string, [baseline, measured]: readonly [Arm, Arm], target?: number): SpreadRow {
  const rounds = 21
  const base: number[] = []
  const timed: number[] = []
  const ratios: number[] = []
  const time = (run: (index: number) => void) => {
    const start = performance.now()
    for (let i = 0; i < PER_ROUND; i++) run(i)
    return (performance.now() - start) / PER_ROUND
  }
  for (let round = 0; round < rounds + 3; round++) {
    const runs = [baseline(), measured()] as const
    const [b, m] = round % 2 === 0 ? [time(runs[0]), time(runs[1])] : (([m2, b2]) => [b2, m2])([time(runs[1]), time(runs[0])])
    if (round < 3) continue
    base.push(b)
    timed.push(m)
    ratios.push(m / b)
  }
  return spreadRow(name, median(base), median(timed), ratios, target)
}

/** Fresh guards for a round, each first `prepare`d, inspecting `text` under `config`. */
export function inspecting(text: string, config: GuardConfig, prepare: () => WireGuard, seen: (events: number) => void): Arm {
  return () => {
    const guards = Array.from({ length: PER_ROUND }, prepare)
    return (index) => seen(guards[index]!.inspect(text, config)!.events.length)
  }
}
