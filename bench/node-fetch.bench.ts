// The Node entry's costs (docs/node.md, "What it costs"), as ratios against baselines measured in
// the same run, in turns so that load from elsewhere falls on both sides. Nothing here asserts on
// time: a missed target shows as `NO` in the `met` column.
//
// - Pass-through: a fetch that is not an LLM request, to a local node:http server, as an app runs
//   it: a process started with `--import` of the built register entry against one started without
//   (bench/support/fetch-process.mjs), and a second plain process as the control; the three take
//   turns, round after round. Each process's own speed strays by several percent, so the ratio is
//   the median over many rounds. For information, the same requests in one process: Node's fetch
//   and the guarded one (node/guarded-fetch.ts) in turns, which costs the guarded arm a few
//   percent that a process of its own does not pay (docs/node.md, "What it costs"); and what the
//   guard adds to the call alone (no network).
// - Analysis: a 2 MB conversation through the registered fetch's analysis (the cheap checks, the
//   wire guard, the splice, the arguments for the native call) against one JSON.parse of its body.
import { execFile } from 'node:child_process'
import { createServer } from 'node:http'
import { existsSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { resolve } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { DEFAULT_CONFIG } from '../engine/index.ts'
import { createGuardEvents } from '../node/guard-events.ts'
import { createGuardedFetch } from '../node/guarded-fetch.ts'
import { candidateOf, withBody } from '../node/request-body.ts'
import { createWireAnalysis, type WireAnalysis } from '../node/wire-analysis.ts'
import { childEnv, REGISTER } from '../test/e2e/node/node-agent.ts'
import { openaiChatBody } from '../test/fixtures/wire/conversations.ts'
import { perRoundRow, rowsWithControl } from './support/per-round-row.ts'
import { median } from './support/quantile.ts'
import { keepForResults } from './support/results.ts'
import type { SpreadRow } from './support/spread-row.ts'
import { session } from './support/wire-conversations.ts'
import { PER_ROUND, timeRounds } from './support/wire-rounds.ts'

const rows: SpreadRow[] = []
keepForResults(`Node entry: fetch pass-through and analysis (Node ${process.version})`, () => rows)

let origin: string
let close: () => Promise<void>
beforeAll(async () => {
  const server = createServer((req, res) => {
    req.resume()
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}'))
  })
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok))
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  close = () =>
    new Promise((ok) => {
      server.close(() => ok())
      server.closeAllConnections()
    })
})
afterAll(async () => {
  await close()
  console.log('\nNode entry (ratio: median over rounds; spread: 25th–75th percentile of the rounds)')
  console.table(rows)
})

/** The cases: a GET, and JSON POSTs of 1 KB and 100 KB that are no LLM request. */
const PASS_THROUGH: readonly (readonly [string, number])[] = [
  ['GET', 0],
  ['JSON POST, 1 KB, no conversation', 1_000],
  ['JSON POST, 100 KB, no conversation', 100_000],
]
const initOf = (bytes: number): RequestInit | undefined =>
  bytes === 0 ? undefined : { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ data: 'x'.repeat(bytes) }) }

const FETCH_PROCESS = resolve(import.meta.dirname, 'support/fetch-process.mjs')
/** Rounds of processes: one of each arm a round. */
const PROCESS_ROUNDS = 15

/** The median milliseconds per request of one process's batches, started with `nodeArgs`. */
function timeProcess(nodeArgs: readonly string[], bytes: number): Promise<number> {
  return new Promise((done, fail) => {
    const args = [...nodeArgs, FETCH_PROCESS, `${bytes}`, '40', '500']
    execFile(process.execPath, args, { env: childEnv(origin, 'none'), timeout: 60_000 }, (error, stdout) => (error ? fail(error) : done(median(JSON.parse(stdout) as number[]))))
  })
}

it('a fetch that is not an LLM request costs what the native one does', async () => {
  expect(existsSync(REGISTER), `no built register entry at ${REGISTER}: run npm run build`).toBe(true)
  const native = globalThis.fetch
  const guarded = createGuardedFetch(native, createWireAnalysis({ observe: false, config: () => DEFAULT_CONFIG, events: createGuardEvents() }))
  const batch = 20
  const time = async (fn: typeof fetch, init: RequestInit | undefined) => {
    const start = performance.now()
    for (let i = 0; i < batch; i++) await (await fn(`${origin}/api/x`, init)).arrayBuffer()
    return (performance.now() - start) / batch
  }
  for (const [name, bytes] of PASS_THROUGH) {
    const init = initOf(bytes)
    const processes: number[][] = [[], [], []]
    const started = [[], ['--import', REGISTER], []] as const
    for (let round = 0; round < PROCESS_ROUNDS; round++) {
      for (let n = 0; n < 3; n++) {
        const arm = (round + n) % 3
        processes[arm]!.push(await timeProcess(started[arm]!, bytes))
      }
    }
    rows.push(...rowsWithControl(`pass-through: ${name}`, processes, 1.05))
    const arms: number[][] = [[], []]
    const fns = [native, guarded]
    for (let round = 0; round < 41 + 4; round++) {
      for (let n = 0; n < 2; n++) {
        const arm = (round + n) % 2
        const took = await time(fns[arm]!, init)
        if (round >= 4) arms[arm]!.push(took)
      }
    }
    rows.push(perRoundRow("  in one process, in turns with Node's own (info)", arms[0]!, arms[1]!))
    // The call alone: an aborted signal rejects at once, after every check the guard makes.
    const aborted = AbortSignal.abort()
    const count = 2_000
    const callCost = async (fn: typeof fetch) => {
      const start = performance.now()
      for (let i = 0; i < count; i++) fn(`${origin}/api/x`, { ...init, signal: aborted }).catch(() => undefined)
      const cost = (performance.now() - start) / count
      await new Promise((settle) => setImmediate(settle))
      return cost
    }
    const calls: [number[], number[]] = [[], []]
    for (let round = 0; round < 21; round++) {
      calls[0].push(await callCost(native))
      calls[1].push(await callCost(guarded))
    }
    rows.push(perRoundRow('  the fetch() call alone, no network (info)', ...calls))
  }
})

it("an LLM request's analysis costs at most a second JSON.parse of its body", () => {
  // A long session with its loop near the end: the reminders are inserted (a rewrite every time).
  const script = session(120, 16_500, 119)
  const text = JSON.stringify(openaiChatBody(script))
  const previous = JSON.stringify(openaiChatBody({ ...script, turns: script.turns.slice(0, -1) }))
  const url = `${origin}/v1/chat/completions`
  const init = { method: 'POST', headers: { 'content-type': 'application/json' }, body: text }
  const label = `${(text.length / 1024 / 1024).toFixed(1)} MB Chat Completions`
  let rewritten = 0
  const analysed = (analysis: WireAnalysis) => {
    const args = [url, init]
    const candidate = candidateOf(args)
    if (candidate?.kind !== 'text') throw new Error('the bench body is no LLM request')
    const plan = analysis.plan(args, candidate.text, url, (body) => withBody(args, body))
    if (plan.args !== args) rewritten++
    plan.after()
  }
  const fresh = () => createWireAnalysis({ observe: false, config: () => DEFAULT_CONFIG, events: createGuardEvents() })
  const next = () => {
    const analysis = fresh()
    analysis.plan([url, { ...init, body: previous }], previous, url, () => [])
    return analysis
  }
  for (const [when, prepare] of [
    ['first sight', fresh],
    ['next request', next],
  ] as const) {
    const measured = () => {
      const analyses = Array.from({ length: PER_ROUND }, prepare)
      return (index: number) => analysed(analyses[index]!)
    }
    rows.push(timeRounds(`analysis: ${label}, ${when}`, [() => () => JSON.parse(text), measured], 2))
  }
  expect(rewritten).toBeGreaterThan(0)
})
