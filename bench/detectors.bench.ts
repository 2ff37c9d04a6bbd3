// What the opt-in detectors cost per call: a guard with every option on against one with none,
// both driven the same way (preExecute, then observe with the call's result), as a ratio measured
// in the same run (bench/support/observe-ratios.ts alternates the rounds). Nothing here asserts on
// time: a missed target shows as `NO`.
import { expect, it } from 'vitest'
import { createRepeatToolGuard, type GuardConfigInput, type ToolExecution, type ToolResult } from '../engine/index.ts'
import { compare, type RatioRow } from './support/observe-ratios.ts'
import { keepForResults, ratioResult } from './support/results.ts'

const EVERY_OPTION: GuardConfigInput = {
  countBy: 'tool',
  resultAware: true,
  ignoreResultKeys: ['timestamp', 'requestId'],
  cycles: { maxPeriod: 6, repeats: 3 },
  // Checked on every call but never reached here: a block happens once per loop, not per call.
  // (A million was reached: a fast engine makes that many calls in one agent's run of rounds.)
  stopAfter: Number.MAX_SAFE_INTEGER,
  tools: [{ match: 'scroll_*', thresholds: [10, 20], stopAfter: null }, { match: 'read_*', countBy: 'call' }],
}

const RESULT: ToolResult = { content: JSON.stringify({ matches: 3, first: 'src/app.ts:12', timestamp: 1_700_000_000, requestId: 'r-1' }) }

/** The small calls an agent makes, as in the engine benchmark's small-arguments case. */
const CALLS = [
  { name: 'grep', arguments: { path: 'src/index.ts', pattern: 'TODO', caseSensitive: false, maxResults: 50 } },
  { name: 'read_file', arguments: { path: 'src/app.ts', offset: 0, limit: 200 } },
  { name: 'list_dir', arguments: { path: 'src', recursive: false } },
]

/** One call after another through `guard`, cycling through `calls`: the per-call path an agent loop takes. */
function driving(config: GuardConfigInput | undefined, calls: readonly Omit<ToolExecution, 'agent'>[]): () => unknown {
  const guard = createRepeatToolGuard(config)
  const agent = { name: 'bench' }
  const execs = calls.map((call) => ({ agent, ...call }))
  let i = 0
  return () => {
    const exec = execs[i++ % execs.length]!
    guard.preExecute(exec)
    return guard.observe(exec, RESULT)
  }
}

const rows: RatioRow[] = []
keepForResults('detectors: every opt-in detector on vs none, per call (Node)', () => rows.map(ratioResult))

it('costs at most 1.5x per call with every option on, against none', () => {
  const where = `Node ${process.versions.node}`
  rows.push(compare(`every option on vs none: one small call repeated (${where})`, 1.5, driving(undefined, CALLS.slice(0, 1)), driving(EVERY_OPTION, CALLS.slice(0, 1))))
  rows.push(compare(`every option on vs none: three small calls in turn (${where})`, 1.5, driving(undefined, CALLS), driving(EVERY_OPTION, CALLS)))
  for (const r of rows)
    console.log(`${r.name}: none ${r.baseline}, every option ${r.measured}, ratio ${r.ratio.toFixed(2)} (target <= ${r.target}: ${r.ratio <= r.target! ? 'yes' : 'NO'})`)
  expect(rows).toHaveLength(2)
})
