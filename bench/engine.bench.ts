// The engine's cost, as ratios against a baseline measured in the same run (see the table it
// prints). Nothing here asserts on time: a missed target shows as `no` in the `met` column.
//
// - observe: the whole per-call path (read the call, find the agent's chain, serialise the
//   arguments once, compare, count) against one plain JSON.stringify of the same arguments.
// - memory: 20,000 agents that made calls and were dropped leave no chain behind.
import { expect, it } from 'vitest'
import { canonicalArguments, createRepeatToolGuard, type RepeatToolGuard } from '../engine/index.ts'

interface Row {
  readonly name: string
  readonly baseline: string
  readonly measured: string
  readonly ratio: number
  /** A ceiling on the ratio; absent for a row that only informs. */
  readonly target?: number
}

const rows: Row[] = []
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

/**
 * Times `baseline` and `measured` in alternating batches (so load from other processes falls on
 * both alike) and takes the median of the per-round ratios.
 */
function compare(name: string, target: number | undefined, baseline: () => unknown, measured: () => unknown): void {
  const rounds = 25
  const warmup = 5
  const nBase = calibrate(baseline, 30)
  const nMeasured = calibrate(measured, 30)
  const base: number[] = []
  const meas: number[] = []
  const ratios: number[] = []
  for (let round = 0; round < warmup + rounds; round++) {
    const [b, m] = round % 2 === 0
      ? [timeBatch(baseline, nBase), timeBatch(measured, nMeasured)]
      : (([m2, b2]) => [b2, m2])([timeBatch(measured, nMeasured), timeBatch(baseline, nBase)])
    if (round < warmup) continue
    base.push(b!)
    meas.push(m!)
    ratios.push(m! / b!)
  }
  rows.push({ name, baseline: duration(median(base)), measured: duration(median(meas)), ratio: median(ratios), ...(target !== undefined && { target }) })
}

function duration(ms: number): string {
  return ms >= 1 ? `${ms.toFixed(2)} ms` : ms >= 0.001 ? `${(ms * 1000).toFixed(2)} µs` : `${(ms * 1e6).toFixed(0)} ns`
}

/** A guard with one agent whose every call repeats the same arguments: the full comparison each time. */
function observing(args: unknown, guard: RepeatToolGuard = createRepeatToolGuard()): () => unknown {
  const exec = { agent: { name: 'bench' }, name: 'write_file', arguments: args }
  return () => guard.observe(exec)
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

it('observe costs a small multiple of one JSON.stringify', () => {
  const cases = [
    ['small arguments', SMALL, 3],
    ['100 KB write payload', WRITE, 1.3],
    ['2,000-record nested object', NESTED, 3],
  ] as const
  for (const [name, args, target] of cases) {
    compare(`observe: ${name}`, target, () => JSON.stringify(args), observing(args))
    // For information: the extension always listens (its panel feed), which adds one event per call.
    const guard = createRepeatToolGuard()
    guard.subscribe(() => undefined)
    compare(`observe: ${name}, with a listener (info)`, undefined, () => JSON.stringify(args), observing(args, guard))
  }
  // For information: the serialisation alone, without the comparison that makes observe exact.
  // safe-stable-stringify returns a rope (a V8 cons string) that any comparison must flatten.
  compare('canonicalArguments alone: 2,000-record nested object (info)', undefined, () => JSON.stringify(NESTED), () => canonicalArguments(NESTED))
})

it('20,000 dropped agents leave no chains behind', async () => {
  const gc = (globalThis as { gc?: () => void }).gc
  expect(gc, 'run with --expose-gc (vitest.bench.config.ts sets it)').toBeTypeOf('function')
  const agents = 20_000
  const guard = createRepeatToolGuard()
  guard.subscribe(() => undefined)
  let finalised = 0
  const watch = new FinalizationRegistry<number>(() => finalised++)
  const settle = async () => {
    for (let i = 0; i < 4; i++) {
      await new Promise((resolve) => setImmediate(resolve))
      gc!()
    }
  }
  const heap = () => process.memoryUsage().heapUsed

  /** A generation of agents that each leave a chain (a run of three, then a different call). */
  function spawn(generation: number): object[] {
    return Array.from({ length: agents }, (_, i) => {
      const agent = { name: `agent ${generation}.${i}` }
      watch.register(agent, i)
      const args = { path: `src/file-${i}.ts`, content: `line ${i}\n`.repeat(20) }
      for (let call = 0; call < 3; call++) guard.observe({ agent, name: 'write_file', arguments: args })
      guard.observe({ agent, name: 'read_file', arguments: { path: `src/file-${i}.ts` } })
      return agent
    })
  }
  async function dropped(expected: number): Promise<void> {
    for (let round = 0; round < 200 && finalised < expected; round++) await settle()
    await settle()
  }

  // A first generation grows the guard's tables and compiles its code: the baseline is taken
  // after it is gone, so what follows compares like with like.
  spawn(0)
  await dropped(agents)
  const before = heap()
  let live: object[] | undefined = spawn(1)
  await settle()
  const alive = heap() - before
  const listedAlive = guard.snapshot().length
  expect(live).toHaveLength(agents)
  live = undefined
  await dropped(2 * agents)
  // Measured before snapshot(), which prunes: what is left here is what the guard kept by itself.
  const retained = heap() - before
  const listedAfter = guard.snapshot().length
  // Keeps the watching registry alive to here: a collected registry reports nothing.
  watch.unregister(watch)

  rows.push({ name: `memory: heap held by ${agents.toLocaleString('en')} agents, left after they are dropped`, baseline: megabytes(alive), measured: megabytes(retained), ratio: Math.max(0, retained) / alive, target: 0.02 })
  rows.push({ name: 'memory: agents in snapshot(), after they are dropped', baseline: String(listedAlive), measured: String(listedAfter), ratio: listedAfter / listedAlive, target: 0 })
  rows.push({ name: 'memory: dropped agents not yet finalised', baseline: String(2 * agents), measured: String(2 * agents - finalised), ratio: (2 * agents - finalised) / (2 * agents), target: 0 })
})

const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(2)} MB`

it('prints the table', () => {
  const header = ['case', 'baseline', 'measured', 'ratio', 'target', 'met']
  const table = rows.map((r) => [
    r.name,
    r.baseline,
    r.measured,
    r.ratio.toFixed(r.ratio > 0 && r.ratio < 0.1 ? 4 : 2),
    r.target === undefined ? '-' : `<= ${r.target}`,
    r.target === undefined ? '-' : r.ratio <= r.target ? 'yes' : 'NO',
  ])
  const widths = header.map((h, i) => Math.max(h.length, ...table.map((row) => row[i]!.length)))
  const line = (cells: readonly string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ')
  console.log(['', line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...table.map(line), ''].join('\n'))
  expect(rows.length).toBeGreaterThan(0)
  expect(sink).toBeGreaterThanOrEqual(0)
})
