// The cost of `observe` per call: the whole per-call path (read the call, find the agent's chain,
// recognise a repeat by its shape or serialise, compare, count), for a call that repeats the previous one
// against one plain JSON.stringify of its arguments, and for a call that differs from it against
// JSON.stringify plus one serialisation by the canonical serialiser (safe-stable-stringify, as
// the engine configures it). No Node or browser API, so engine.bench.ts
// times the same cases in Node and, built into bench/engine-page, in Chromium, where the page
// guard runs the engine.
import type { canonicalArguments, createRepeatToolGuard, RepeatToolGuard } from '../../engine/index.ts'
import { medianInterval } from './quantile.ts'

interface EngineUnderTest {
  readonly createRepeatToolGuard: typeof createRepeatToolGuard
  readonly canonicalArguments: typeof canonicalArguments
  /** The canonical serialiser itself, configured as the engine configures it: the baseline's. */
  readonly serialiser: (value: unknown) => string | undefined
}

export interface RatioRow {
  readonly name: string
  readonly baseline: string
  readonly measured: string
  readonly ratio: number
  /** A ceiling on the ratio; absent for a row that only informs. */
  readonly target?: number
  /** Where the median of such rounds falls 95 times in 100 (quantile.ts); absent for a row of one measure. */
  readonly interval?: readonly [number, number]
}

let sink = 0

/** Milliseconds per call of `fn`, over a batch long enough to time well. */
function timeBatch(fn: () => unknown, iterations: number): number {
  const start = performance.now()
  for (let i = 0; i < iterations; i++) if (fn() === sink) sink++
  return (performance.now() - start) / iterations
}

/**
 * Iterations that take about `ms` milliseconds. Each size is timed three times and the fastest
 * counts: a batch the scheduler paused looks slow, never fast, and a size taken as long enough
 * because of a pause would leave batches too short for the browser's coarse clock.
 */
function calibrate(fn: () => unknown, ms: number): number {
  let iterations = 1
  while (Math.min(timeBatch(fn, iterations), timeBatch(fn, iterations), timeBatch(fn, iterations)) * iterations < ms) iterations *= 2
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
  return { name, baseline: duration(median(base)), measured: duration(median(meas)), ratio: median(ratios), interval: medianInterval(ratios), ...(target !== undefined && { target }) }
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

/** An equal copy, built as a new object: what a caller hands the guard for the same call again. */
const rebuilt = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T

/** Alternates between two values: each call gets the other one. */
function alternating<T>(a: T, b: T): () => T {
  let flip = false
  return () => ((flip = !flip) ? a : b)
}

/** `args` changed at its end, same length: a different call that only a full comparison tells apart. */
const CHANGED = {
  small: { ...SMALL, pattern: 'TODX' },
  write: { ...WRITE, content: `${WRITE.content.slice(0, -1)}!` },
  nested: { records: NESTED.records.map((r, i) => (i === NESTED.records.length - 1 ? { ...r, name: `record ${i + 1}`.slice(0, r.name.length) } : r)) },
}

/** The rows for `engine`, each name ending with `where` (the runtime). */
export function observeRatios(engine: EngineUnderTest, where: string): RatioRow[] {
  /** `observe` of one agent's calls, taking their arguments from `next` in turn. */
  function observing(next: () => unknown, guard: RepeatToolGuard = engine.createRepeatToolGuard()): () => unknown {
    const agent = { name: 'bench' }
    return () => guard.observe({ agent, name: 'write_file', arguments: next() })
  }
  const json = (next: () => unknown) => () => JSON.stringify(next())
  const jsonAndSerialiser = (next: () => unknown) => () => {
    const args = next()
    return JSON.stringify(args).length + engine.serialiser(args)!.length
  }
  const rows: RatioRow[] = []
  const cases = [
    ['small arguments', SMALL, CHANGED.small],
    ['100 KB write payload', WRITE, CHANGED.write],
    ['2,000-record nested object', NESTED, CHANGED.nested],
  ] as const
  for (const [name, args, changed] of cases) {
    // A repeat: the previous call had equal arguments, built as another object.
    const same = () => alternating<unknown>(args, rebuilt(args))
    rows.push(compare(`observe, repeated call: ${name} vs JSON.stringify (${where})`, 1.3, json(same()), observing(same())))
    // For information: the extension always listens (its panel feed), which adds one event per call.
    const listened = engine.createRepeatToolGuard()
    listened.subscribe(() => undefined)
    rows.push(compare(`observe, repeated call, with a listener: ${name} vs JSON.stringify (${where}, info)`, undefined, json(same()), observing(same(), listened)))
    const other = () => alternating<unknown>(args, changed)
    rows.push(compare(`observe, different call: ${name} vs JSON.stringify + safe-stable-stringify (${where})`, 1.3, jsonAndSerialiser(other()), observing(other())))
  }
  rows.push(
    compare(`observe, different call: 100 KB write payload vs JSON.stringify (${where})`, 1.3, json(alternating<unknown>(WRITE, CHANGED.write)), observing(alternating<unknown>(WRITE, CHANGED.write))),
  )
  // For information: the engine's canonical form alone, against the serialiser's (a flat record
  // is written by JSON.stringify over a sorted copy, engine/flat-record.ts) and against JSON.stringify.
  for (const [name, args] of [cases[0], cases[2]]) {
    rows.push(
      compare(
        `canonicalArguments alone: ${name} vs safe-stable-stringify (${where}, info)`,
        undefined,
        () => engine.serialiser(args),
        () => engine.canonicalArguments(args),
      ),
    )
    rows.push(
      compare(
        `canonicalArguments alone: ${name} vs JSON.stringify (${where}, info)`,
        undefined,
        () => JSON.stringify(args),
        () => engine.canonicalArguments(args),
      ),
    )
  }
  return rows
}
