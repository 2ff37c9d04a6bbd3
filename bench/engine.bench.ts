// The engine's cost, as ratios against a baseline measured in the same run (see the table it
// prints). Nothing here asserts on time: a missed target shows as `NO` in the `met` column.
//
// - observe: the whole per-call path against one plain JSON.stringify of the same arguments
//   (bench/support/observe-ratios.ts), in Node and in Chromium, where the page guard runs it. Both
//   time the engine as it ships (the built package, the built page), not the sources through the
//   test runner's module loader, whose calls between modules cost more than a bundle's.
// - memory: 20,000 agents that made calls and were dropped leave no chain behind.
import { resolve } from 'node:path'
import { expect, it } from 'vitest'
import { createRepeatToolGuard } from '../engine/index.ts'
import { stringify as serialiser } from '../engine/stringifiers.ts'
import { builtEngine } from './support/built-engine.ts'
import { openBuiltPage } from './support/built-page.ts'
import { observeRatios, type RatioRow } from './support/observe-ratios.ts'
import { keepForResults, ratioResult } from './support/results.ts'

const rows: RatioRow[] = []
keepForResults('engine: observe per call (Node, Chromium), and memory', () => rows.map(ratioResult))

it('observe costs a small multiple of one JSON.stringify, in Node', async () => {
  const engine = await builtEngine()
  rows.push(...observeRatios({ ...engine, serialiser }, `Node ${process.versions.node}`))
})

it('observe costs a small multiple of one JSON.stringify, in Chromium', async () => {
  const built = await openBuiltPage(resolve(import.meta.dirname, 'engine-page'))
  try {
    const version = await built.page.evaluate(() => /Chrome\/(\d+)/.exec(navigator.userAgent)?.[1] ?? '?')
    rows.push(...(await built.page.evaluate((where) => window.runObserveRatios(where), `Chromium ${version}`)))
  } finally {
    await built.close()
  }
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

  rows.push({
    name: `memory: heap held by ${agents.toLocaleString('en')} agents, left after they are dropped`,
    baseline: megabytes(alive),
    measured: megabytes(retained),
    ratio: Math.max(0, retained) / alive,
    target: 0.02,
  })
  rows.push({ name: 'memory: agents in snapshot(), after they are dropped', baseline: String(listedAlive), measured: String(listedAfter), ratio: listedAfter / listedAlive, target: 0 })
  rows.push({ name: 'memory: dropped agents not yet finalised', baseline: String(2 * agents), measured: String(2 * agents - finalised), ratio: (2 * agents - finalised) / (2 * agents), target: 0 })
})

const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(2)} MB`

it('prints the table', () => {
  const header = ['case', 'baseline', 'measured', 'ratio', 'target', 'met']
  const table = rows.map(ratioResult).map((r) => [r.case, r.baseline, r.measured, r.ratio, r.target, r.met])
  const widths = header.map((h, i) => Math.max(h.length, ...table.map((row) => row[i]!.length)))
  const line = (cells: readonly string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ')
  console.log(['', line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...table.map(line), ''].join('\n'))
  expect(rows.length).toBeGreaterThan(0)
})
