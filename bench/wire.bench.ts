// Zero-code mode's costs, as ratios against baselines measured in the same run, alternating
// baseline and measured batches so load from elsewhere falls on both alike. Nothing here asserts
// on time: a missed target shows as `NO` in the `met` column.
//
// - Pass-through: a fetch that is not an LLM request, through the patched fetch against the
//   native one, in Chromium to a local server. Measured where it matters: the page loads the
//   extension's built MAIN-world script (dist/extension/page.js, exactly as shipped) after keeping
//   a reference to the native fetch, so both run side by side in one page, through Chromium's
//   real network stack. A Node imitation would time a different fetch and a different engine.
//   A local request's own time varies far more than what the interceptor adds, so each ratio is
//   shown with its spread, and the one part of the interceptor that grows with the body (the
//   check for tool-call markers) is timed on its own as well: the shipped function, built into
//   the page as page.js is built.
// - Analysis and rewrite: one 2 MB conversation body through the wire guard (parse, walk, chain
//   rules, splice) against one JSON.parse of the same body, in Node (pure engine code).
// - Detectors: the same analysis with every opt-in detector on, against the defaults.
// - Responses continued by id: a request that sends only its outputs, guarded over the chain of
//   responses remembered from the page's tees, against one JSON.parse of the stateless body that
//   would carry the same conversation.
import { resolve } from 'node:path'
import { build } from 'vite'
import { afterAll, expect, it } from 'vitest'
import { RECOMMENDED_CONFIG, resolveConfig, type GuardConfig, type GuardConfigInput } from '../engine/index.ts'
import { createWireGuard, type WireGuard } from '../engine/wire/index.ts'
import { createStatefulResponses } from '../engine/wire/stateful/responses.ts'
import { anthropicBody, openaiChatBody, openaiResponsesBody, type Body } from '../test/fixtures/wire/conversations.ts'
import { perRoundRow, rowsWithControl } from './support/per-round-row.ts'
import { median } from './support/quantile.ts'
import type { RoundsWindow } from './support/rounds.ts'
import { openShippedScriptPage, PASS_THROUGH_CASES } from './support/shipped-script-page.ts'
import { keepForResults } from './support/results.ts'
import { spreadRow, type SpreadRow } from './support/spread-row.ts'
import { chainOf, session } from './support/wire-conversations.ts'
import { type Arm, inspecting, PER_ROUND, timeRounds } from './support/wire-rounds.ts'

const rows: SpreadRow[] = []
keepForResults('zero-code mode: fetch pass-through (Chromium), analysis and rewrite (Node)', () => rows)

/** A row of the table; without a target it only informs. */
function record(name: string, baseline: number, measured: number, ratios: readonly number[], target?: number): void {
  rows.push(spreadRow(name, baseline, measured, ratios, target))
}

afterAll(() => {
  console.log('\nzero-code mode (ratio: median over rounds; spread: 25th–75th percentile of the rounds; interval: where the median falls 95 times in 100)')
  console.table(rows)
})

it('a fetch that is not an LLM request costs what the native one does', async () => {
  // The native fetch is kept before the extension's script patches it, as a page script could not.
  const html = '<!doctype html><script>window.nativeFetch = window.fetch</script><script src="/marker-check.js"></script><script src="/page.js"></script>'
  // The shipped marker check, built as page.js is (minify off, one classic script).
  const buildMarkerCheck = async (dir: string) => {
    await build({
      configFile: false,
      logLevel: 'warn',
      build: {
        outDir: dir,
        emptyOutDir: false,
        target: 'es2022',
        minify: false,
        lib: { entry: resolve(import.meta.dirname, 'wire-page/marker-check.ts'), formats: ['iife'], name: 'markerCheck', fileName: () => 'marker-check.js' },
      },
    })
  }
  const { page, close } = await openShippedScriptPage(html, { prepare: buildMarkerCheck })
  try {
    for (const [name, body] of PASS_THROUGH_CASES) {
      // Native and patched batches take turns (in rotating order) and each round gives a ratio, so
      // a slow moment of the machine falls on both sides of it; batches, not single requests,
      // because the page's clock is coarse (0.1 ms). A second native batch in every round is the
      // control: native against itself shows how far the ratio strays with nothing added.
      const result = await page.evaluate(
        async ([body, samples, batch]) => {
          const { interleaved, alternating } = (window as unknown as RoundsWindow).benchRounds
          const w = window as unknown as { nativeFetch: typeof fetch }
          if (w.nativeFetch === fetch) throw new Error('fetch is not patched: the page script did not run')
          const init: RequestInit | undefined = body === null ? undefined : { method: 'POST', body, headers: { 'content-type': 'application/json' } }
          const time = async (fn: typeof fetch) => {
            const start = performance.now()
            for (let i = 0; i < batch; i++) await (await fn('/api/x', init)).arrayBuffer()
            return (performance.now() - start) / batch
          }
          const arms = await interleaved(
            [w.nativeFetch, fetch, w.nativeFetch].map((fn) => () => time(fn)),
            samples,
            4,
          )
          // What the interceptor adds to the call itself, without the network: calls with an aborted
          // signal reject at once, after every check the interceptor makes.
          const aborted = AbortSignal.abort()
          const count = body !== null && body.length > 10_000 ? 100 : 2_000
          const callCost = async (fn: typeof fetch) => {
            const start = performance.now()
            for (let i = 0; i < count; i++) fn('/api/x', { ...init, signal: aborted }).catch(() => {})
            const cost = (performance.now() - start) / count
            await new Promise((settle) => setTimeout(settle, 0))
            return cost
          }
          const calls = await alternating(
            () => callCost(w.nativeFetch),
            () => callCost(fetch),
            21,
          )
          // The interceptor's only work that grows with the body: its check for tool-call markers
          // (the shipped function, from marker-check.js), run as often as a round of calls.
          const checks: number[] = []
          if (body !== null) {
            const check = window.mayHoldToolCall
            for (let i = 0; i < 21; i++) {
              const start = performance.now()
              for (let n = 0; n < count; n++) if (check(body)) throw new Error('the bench body holds a tool-call marker')
              checks.push((performance.now() - start) / count)
            }
          }
          return { arms, calls, checks }
        },
        [body, 201, 4] as const,
      )
      rows.push(...rowsWithControl(`pass-through: ${name}`, result.arms, 1.05))
      rows.push(perRoundRow(`  the fetch() call alone, no network (info)`, ...result.calls))
      const request = median(result.arms[0]!)
      // As a ratio over the native request: what the check alone adds to it.
      if (result.checks.length > 0)
        record(
          `  its marker check alone, over the request (info)`,
          request,
          request + median(result.checks),
          result.checks.map((t) => (request + t) / request),
        )
    }
  } finally {
    await close()
  }
})

it('analysis and rewrite of a 2 MB conversation cost at most a second JSON.parse', () => {
  const cases = [
    ['Chat Completions', openaiChatBody, 120],
    ['Anthropic Messages', anthropicBody, 120],
    // Reminders early in a long history: they stay where they were, far from the end.
    ['Chat Completions, looped at step 3 of 120', openaiChatBody, 3],
  ] as const
  for (const [format, build, loopAt] of cases) {
    const script = session(120, 16_500, loopAt)
    const text = JSON.stringify(build(script))
    const previous = JSON.stringify(build({ ...script, turns: script.turns.slice(0, -1) }) as Body)
    const label = `${(text.length / 1024 / 1024).toFixed(1)} MB ${format}`
    // First sight: every call of the history goes through the chain rules.
    compare(`analysis + rewrite: ${label}, first sight`, text, () => createWireGuard())
    // The steady state: the conversation is known up to the step before.
    compare(`analysis + rewrite: ${label}, next request`, text, () => {
      const guard = createWireGuard()
      guard.inspect(previous, RECOMMENDED_CONFIG)
      return guard
    })
  }
})

function compare(name: string, text: string, prepare: () => WireGuard): void {
  let inserted = 0
  rows.push(timeRounds(name, [() => () => JSON.parse(text), inspecting(text, RECOMMENDED_CONFIG, prepare, (events) => (inserted = events))], 2))
  expect(inserted).toBeGreaterThan(0)
}

// Every opt-in detector at once, on tools the session really calls.
const EVERY_OPTION: GuardConfigInput = {
  resultAware: true,
  ignoreResultKeys: ['timestamp', 'requestId'],
  cycles: { maxPeriod: 6, repeats: 2 },
  stopAfter: 4,
  tools: [
    { match: 'grep', countBy: 'tool', thresholds: [2, 4] },
    { match: 'list_dir', resultAware: false },
  ],
}

it('every detector on costs little more than the defaults on a 2 MB conversation', () => {
  const script = session(120, 16_500, 60)
  const text = JSON.stringify(openaiChatBody(script))
  const previous = JSON.stringify(openaiChatBody({ ...script, turns: script.turns.slice(0, -1) }))
  const everyOption = resolveConfig(EVERY_OPTION, RECOMMENDED_CONFIG)
  const label = `${(text.length / 1024 / 1024).toFixed(1)} MB Chat Completions`
  const firstSight = () => () => createWireGuard()
  // The steady state: each guard has seen the previous request under the config it is timed with.
  const nextRequest = (config: GuardConfig) => () => {
    const guard = createWireGuard()
    guard.inspect(previous, config)
    return guard
  }
  // The options do fire on this session: the loop is a run of stopAfter and more.
  const sample = createWireGuard().inspect(text, everyOption)!.events
  expect(sample.filter((event) => event.type === 'blocked').length).toBeGreaterThan(0)
  for (const [when, prepare] of [
    ['first sight', firstSight],
    ['next request', nextRequest],
  ] as const) {
    let inspected = 0
    const arm = (config: GuardConfig) => inspecting(text, config, prepare(config), () => (inspected += 1))
    rows.push(timeRounds(`detectors: ${label}, ${when}, every option on (baseline: none)`, [arm(RECOMMENDED_CONFIG), arm(everyOption)], 1.5))
    expect(inspected).toBe(2 * 24 * PER_ROUND)
  }
})

it('a request continued by id, guarded over its chain, costs less than parsing the stateless body', () => {
  const script = session(120, 16_500, 117)
  const stateless = openaiResponsesBody(script)
  const text = JSON.stringify(stateless)
  const stateful = createStatefulResponses()
  const { last, previous } = chainOf(stateless, stateful)
  let inserted = 0
  // The steady state: the chain is known up to the response before, its request was guarded.
  const guarded: Arm = () => {
    const guards = Array.from({ length: PER_ROUND }, () => {
      const guard = createWireGuard()
      stateful.inspect(guard, previous, RECOMMENDED_CONFIG)
      return guard
    })
    return (index) => void (inserted = stateful.inspect(guards[index]!, last, RECOMMENDED_CONFIG)!.events.length)
  }
  const label = `${(text.length / 1024 / 1024).toFixed(1)} MB Responses conversation, ${last.text.length} B request continuing a chain of 120 responses`
  rows.push(timeRounds(`continued by id: ${label} (baseline: JSON.parse of the stateless body)`, [() => () => JSON.parse(text), guarded], 2))
  expect(inserted).toBeGreaterThan(0)
})
