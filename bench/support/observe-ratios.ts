// The cost of `observe` per call against one plain JSON.stringify of the same arguments: the
// whole per-call path (read the call, find the agent's chain, serialise the arguments once,
// compare, count). No Node or browser API, so engine.bench.ts times the same cases in Node and,
// built into bench/engine-page, in Chromium, where the page guard runs the engine.
import type { canonicalArguments, createRepeatToolGuard, RepeatToolGuard } from '../../engine/index.ts'

interface EngineUnderTest {
  readonly createRepeatToolGuard: typeof createRepeatToolGuard
  readonly canonicalArguments: typeof canonicalArguments
}

export interface RatioRow {
  readonly name: string
  readonly baseline: string
  readonly measured: string
  readonly ratio: number
  /** A ceiling on the ratio; absent for a row that only informs. */
  readonly target?: number
}

let sink = 0

/** Milliseconds per call of `fn`, over a batch long enough to time well. */
function timeBatch(fn: () => unknown, iterations: number): number {
  const start = performance.now()
  for (let i = 0; i < iterations; i++) if (fn() === sink) sink++
  return (performance.now() - start) / iterations
}

/** Iterations that take about `ms` milliseconds. */
function calibrate(fn: () => unknown, ms: number): number {
  let iterations = 1
  while (timeBatch(fn, iterations) * iterations < ms) iterations *= 2
  return iterations
}

const median = (values: readonly number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!

function duration(ms: number): string {
  return ms >= 1 ? `${ms.toFixed(2)} ms` : ms >= 0.001 ? `${(ms * 1000).toFixed(2)} µs` : `${(ms * 1e6).toFixed(0)} ns`
}

/**
 * Times `baseline` and `measured` in alternating batches (so load from other processes falls on
 * both alike) and takes the median of the per-round ratios.
 */
export function compare(name: string, target: number | undefined, baseline: () => unknown, measured: () => unknown): RatioRow {
  const rounds = 25
  const warmup = 5
  const nBase = calibrate(baseline, 30)
  const nMeasured = calibrate(measured, 30)
  const base: number[] = []
  const meas: number[] = []
  const ratios: number[] = []
  for (let round = 0; round < warmup + rounds; round++) {
    let b: number
    let m: number
    if (round % 2 === 0) {
      b = timeBatch(baseline, nBase)
      m = timeBatch(measured, nMeasured)
    } else {
      m = timeBatch(measured, nMeasured)
      b = timeBatch(baseline, nBase)
    }
    if (round < warmup) continue
    base.push(b)
    meas.push(m)
    ratios.push(m / b)
  }
  return { name, baseline: duration(median(base)), measured: duration(median(meas)), ratio: median(ratios), ...(target !== undefined && { target }) }
}

const SMALL = { path: 'src/index.ts', pattern: 'TODO', caseSensitive: false, maxResults: 50 }

const LINE = 'export function add(a: number, b: number): number { return a + b } // "sum"\t\\n\n'
const WRITE = { path: 'src/generated/big.ts', content: LINE.repeat(Math.ceil(100_000 / LINE.length)).slice(0, 100_000) }

const NESTED = {
  records: Array.from({ length: 2_000 }, (_, i) => ({
    id: i,
    name: `record ${i}`,
    tags: ['alpha', 'beta', i % 3 === 0 ? 'gamma' : 'delta'],
    meta: { createdAt: '2026-01-01T00:00:00.000Z', score: i * 1.5, active: i % 2 === 0, owner: { id: i % 17, team: 'core' } },
  })),
}

/** The rows for `engine`, each name ending with `where` (the runtime). */
export function observeRatios(engine: EngineUnderTest, where: string): RatioRow[] {
  /** A guard with one agent whose every call repeats the same arguments: the full comparison each time. */
  function observing(args: unknown, guard: RepeatToolGuard = engine.createRepeatToolGuard()): () => unknown {
    const exec = { agent: { name: 'bench' }, name: 'write_file', arguments: args }
    return () => guard.observe(exec)
  }
  const rows: RatioRow[] = []
  const cases = [
    ['small arguments', SMALL, 3],
    ['100 KB write payload', WRITE, 1.3],
    ['2,000-record nested object', NESTED, 3],
  ] as const
  for (const [name, args, target] of cases) {
    rows.push(compare(`observe: ${name} (${where})`, target, () => JSON.stringify(args), observing(args)))
    // For information: the extension always listens (its panel feed), which adds one event per call.
    const guard = engine.createRepeatToolGuard()
    guard.subscribe(() => undefined)
    rows.push(compare(`observe: ${name}, with a listener (${where}, info)`, undefined, () => JSON.stringify(args), observing(args, guard)))
  }
  // For information: the serialisation alone, without the comparison that makes observe exact.
  // safe-stable-stringify returns a rope (a V8 cons string) that any comparison must flatten.
  for (const [name, args] of [cases[0], cases[2]])
    rows.push(compare(`canonicalArguments alone: ${name} (${where}, info)`, undefined, () => JSON.stringify(args), () => engine.canonicalArguments(args)))
  return rows
}
