// What the opt-in detectors cost per call: a guard with every option on against one with none,
// both driven the same way (preExecute, then observe with the call's result, which changes as a
// poll's does), as a ratio measured in the same run (bench/support/observe-ratios.ts alternates
// the rounds). The guards are the built engine, as engine.bench.ts times it: through the test
// runner's module loader, both would pay for its calls between modules, and the ratio would
// shrink by what no user pays. Each row runs on a copy of the engine of its own
// (bench/support/built-engine.ts), so what one row ran does not slow the next. Nothing here
// asserts on time: a missed target shows as `NO`.
import { expect, it } from 'vitest'
import type { GuardConfigInput, ToolExecution, ToolResult } from '../engine/index.ts'
import { builtEngine, type Engine } from './support/built-engine.ts'
import { compare, type RatioRow } from './support/observe-ratios.ts'
import { keepForResults, ratioResult } from './support/results.ts'

const EVERY_OPTION: GuardConfigInput = {
  countBy: 'tool',
  resultAware: true,
  ignoreResultKeys: ['timestamp', 'requestId'],
  cycles: { maxPeriod: 6, repeats: 3 },
  // Round 2: a volatile argument key (absent from these calls, so every call is still looked
  // through for it), near repeats, and error runs (these results are no errors: each call ends one).
  ignoreArgumentKeys: ['nonce'],
  similar: { threshold: 0.8, minCalls: 3 },
  errorRuns: { after: 3 },
  // Checked on every call but never reached here: a block happens once per loop, not per call.
  // (A million was reached: a fast engine makes that many calls in one agent's run of rounds.)
  stopAfter: Number.MAX_SAFE_INTEGER,
  tools: [
    { match: 'scroll_*', thresholds: [10, 20], stopAfter: null },
    { match: 'read_*', countBy: 'call' },
  ],
}

/**
 * The guard a poll needs before any detector: results compared without their volatile keys. For
 * information, every option is also timed against it, so the table shows what the detectors add
 * beyond reading and comparing results, which both sides then pay alike.
 */
const RESULT_AWARE: GuardConfigInput = { resultAware: true, ignoreResultKeys: EVERY_OPTION.ignoreResultKeys }

/** Every option but the cycle window, for information: what the window's comparisons cost. */
const WITHOUT_CYCLES: GuardConfigInput = { ...EVERY_OPTION, cycles: null }

/**
 * Round 1's options alone, for information: every option but round 2's (`ignoreArgumentKeys`,
 * `similar`, `errorRuns`), so the table shows what each round adds.
 */
const { ignoreArgumentKeys: _keys, similar: _similar, errorRuns: _errors, ...ROUND_ONE } = EVERY_OPTION

/** Near repeats only, at the threshold the docs' examples use. */
const SIMILAR_ALONE: GuardConfigInput = { similar: { threshold: 0.7, minCalls: 3 } }

/**
 * Results as a poll returns them: the same answer each time but for a timestamp and a request id
 * that differ on every call. So result-aware runs compare them with the ignored keys removed (two
 * equal texts would be the same result at once, and `ignoreResultKeys` would never run). Made
 * before the timing, so neither side pays for writing them.
 */
const RESULTS: readonly ToolResult[] = Array.from({ length: 1_024 }, (_, i) => ({
  content: JSON.stringify({ matches: 3, first: 'src/app.ts:12', timestamp: 1_700_000_000 + i, requestId: `r-${i}` }),
}))

/** The small calls an agent makes, as in the engine benchmark's small-arguments case. */
const CALLS = [
  { name: 'grep', arguments: { path: 'src/index.ts', pattern: 'TODO', caseSensitive: false, maxResults: 50 } },
  { name: 'read_file', arguments: { path: 'src/app.ts', offset: 0, limit: 200 } },
  { name: 'list_dir', arguments: { path: 'src', recursive: false } },
]

/**
 * Near repeats of one tool with 4 KB arguments: a note written again and again, each time with one
 * word changed at a place of its own, so two calls in turn differ in two places. Every call is a
 * different call to the default guard (one serialisation each); to `similar`, each is alike to
 * the one before, and its text is compared with that one's.
 */
const NEAR_REPEATS = (() => {
  const words = Array.from({ length: 700 }, (_, i) => ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta'][i % 6]! + (i % 13))
  return Array.from({ length: 64 }, (_, i) => {
    const edited = words.slice()
    edited[(i * 37) % words.length] = `edit${i}`
    return { name: 'write_note', arguments: { path: 'notes/plan.md', content: edited.join(' ').slice(0, 4_000) } }
  })
})()

type Calls = readonly Omit<ToolExecution, 'agent'>[]

/** One call after another through a guard of `config`, cycling through `calls`: the per-call path an agent loop takes. */
function driving({ createRepeatToolGuard }: Engine, config: GuardConfigInput | undefined, calls: Calls): () => unknown {
  const guard = createRepeatToolGuard(config)
  const agent = { name: 'bench' }
  const execs = calls.map((call) => ({ agent, ...call }))
  let i = 0
  return () => {
    const exec = execs[i % execs.length]!
    const result = RESULTS[i % RESULTS.length]!
    i++
    guard.preExecute(exec)
    return guard.observe(exec, result)
  }
}

const rows: RatioRow[] = []
keepForResults('detectors: every opt-in detector on vs none, per call (Node)', () => rows.map(ratioResult))

/** Where the rows are timed, as their names end. */
const WHERE = `Node ${process.versions.node}`

/**
 * Times a row, a guard of `measured` against one of `baseline` on the same calls, on a copy of the
 * engine of its own; keeps it for the table and prints it.
 */
async function timeRow(name: string, target: number | undefined, baseline: GuardConfigInput | undefined, measured: GuardConfigInput, calls: Calls): Promise<void> {
  const engine = await builtEngine(`row-${rows.length + 1}`)
  const row = compare(name, target, driving(engine, baseline, calls), driving(engine, measured, calls))
  rows.push(row)
  const verdict = target === undefined ? '' : ` (target <= ${target}: ${row.ratio <= target ? 'yes' : 'NO'})`
  console.log(`${name.trim()}: ${row.baseline} -> ${row.measured}, ratio ${row.ratio.toFixed(2)}${verdict}`)
}

/** The run `config` counts after ten polls of one call: one run only when the results compare equal. */
async function runAfterPolls(config: GuardConfigInput): Promise<number | undefined> {
  const guard = (await builtEngine()).createRepeatToolGuard(config)
  const exec = { agent: { name: 'check' }, ...CALLS[0]! }
  for (let i = 0; i < 10; i++) {
    guard.preExecute(exec)
    guard.observe(exec, RESULTS[i]!)
  }
  return guard.snapshot()[0]?.count
}

it('compares the polls without their timestamp and request id, which differ on every call', async () => {
  expect(await runAfterPolls({ resultAware: true })).toBe(1)
  expect(await runAfterPolls(EVERY_OPTION)).toBe(10)
})

it('times each row on a copy of the engine of its own', async () => {
  const [first, second] = [await builtEngine('check-1'), await builtEngine('check-2')]
  expect(first.createRepeatToolGuard).not.toBe(second.createRepeatToolGuard)
})

/** The two shapes of calls the every-option rows time. */
const SHAPES = [
  [CALLS.slice(0, 1), 'one small call repeated'],
  [CALLS, 'three small calls in turn'],
] as const

it('costs at most 1.5x per call with every option on, against none', async () => {
  const before = rows.length
  for (const [calls, shape] of SHAPES) await timeRow(`every option on vs none: ${shape} (${WHERE})`, 1.5, undefined, EVERY_OPTION, calls)
  expect(rows.length - before).toBe(2)
})

it('times every option against the result-aware guard, without the cycle window, and round 1 alone, for information', async () => {
  const before = rows.length
  for (const [calls, shape] of SHAPES) {
    await timeRow(`  every option on vs the result-aware guard: ${shape} (${WHERE}, info)`, undefined, RESULT_AWARE, EVERY_OPTION, calls)
    await timeRow(`  every option but cycles vs none: ${shape} (${WHERE}, info)`, undefined, undefined, WITHOUT_CYCLES, calls)
    await timeRow(`  round 1's options only vs none: ${shape} (${WHERE}, info)`, undefined, undefined, ROUND_ONE, calls)
  }
  expect(rows.length - before).toBe(6)
})

it('finds near repeats of 4 KB arguments at most 2x the default guard on the same calls', async () => {
  // The calls are near repeats, and long: `similar` finds them, one text compared per call.
  const guard = (await builtEngine()).createRepeatToolGuard(SIMILAR_ALONE)
  const agent = { name: 'check' }
  const fired = NEAR_REPEATS.slice(0, 3).map((call) => guard.observe({ agent, ...call })?.source.summary)
  expect(fired).toEqual([undefined, undefined, 'write_note ≈ × 3'])
  expect(NEAR_REPEATS[0]!.arguments.content.length).toBe(4_000)
  await timeRow(`similar alone vs the default guard: near repeats of one tool, 4 KB arguments (${WHERE})`, 2, undefined, SIMILAR_ALONE, NEAR_REPEATS)
})
