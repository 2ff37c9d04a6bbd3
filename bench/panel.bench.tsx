// The panel with 100,000 recorded calls across 50 agents, drawn by Chromium: time to first
// render, cost of each live batch, DOM size, frame pacing while batches stream in. Measured inside
// a page that mounts the real panel (bench/panel-page), built as `npm run build` builds the
// panel. Live batches arrive one per frame as port messages, through the panel's own port handler
// (validation, the store, Preact's render scheduling). Costs are ratios against a baseline
// measured in the same run and interleaved with the live batches, frame by frame: drawing an empty
// panel. Every timing runs from the work's trigger to the end of its render and a forced style
// and layout pass. Nothing asserts on time.
import { resolve } from 'node:path'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, expect, test } from 'vitest'
import type { PanelBenchOptions, PanelBenchResult } from './panel-page/main.tsx'
import { openBuiltPage, type BuiltPage } from './support/built-page.ts'
import { keepForResults, type ResultRow } from './support/results.ts'
import { ratioCells } from './support/spread-row.ts'

const OPTIONS: PanelBenchOptions = { calls: 100_000, agents: 50, liveCalls: 40, rounds: 120 }
const FRAME_MS = 16

const results: ResultRow[] = []
keepForResults('panel: 100,000 recorded calls, live batches drawn in a 16 ms frame (Chromium)', () => results)

let built: BuiltPage
let page: Page

beforeAll(async () => {
  // About the size of a DevTools panel docked at the bottom of a laptop screen.
  built = await openBuiltPage(resolve(import.meta.dirname, 'panel-page'), { width: 1200, height: 500 })
  page = built.page
})

afterAll(() => built?.close())

const median = (values: readonly number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!
const percentile = (values: readonly number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))]!

test('panel: 100,000 calls across 50 agents (Chromium)', async () => {
  const r: PanelBenchResult = await page.evaluate((options) => window.runPanelBench(options), OPTIONS)
  const base = r.emptyMs
  const row = (what: string, ms: number, notes = '') => ({
    what,
    ms: ms.toFixed(2),
    'x empty panel': (ms / base).toFixed(1),
    'of 16 ms frame': `${Math.round((ms / FRAME_MS) * 100)}%`,
    notes,
  })
  const late = (frames: readonly number[]) => frames.filter((ms) => ms > FRAME_MS * 1.25).length
  console.log(
    `\npanel in Chromium (${OPTIONS.calls.toLocaleString('en-US')} calls across ${OPTIONS.agents} agents = ${r.events.toLocaleString('en-US')} events, ` +
      `${r.rowsHeld.toLocaleString('en-US')} timeline rows held); each timing = trigger to render + style and layout, no paint`,
  )
  console.table([
    row(`baseline: draw an empty panel, median of ${r.batchMs.length} (between the live batches)`, base, `${r.emptyNodes} DOM nodes`),
    row('first render with everything recorded', r.firstMs, `${r.firstNodes} DOM nodes`),
    // A median hides the slow batches a user notices: the p90 and the worst sit beside it.
    row(`live batch, median of ${r.batchMs.length}: port message -> validate, ingest, draw (${r.batchEvents} events, ${OPTIONS.liveCalls} calls)`, median(r.batchMs), `${r.liveNodes} DOM nodes after`),
    row(`live batch, p90 of ${r.batchMs.length}`, percentile(r.batchMs, 0.9)),
    row(`live batch, max of ${r.batchMs.length}`, Math.max(...r.batchMs), `${r.batchMs.filter((ms) => ms > FRAME_MS).length} of ${r.batchMs.length} over 16 ms`),
    row('text filter over every row', r.filterMs),
    row('import the exported session, then draw it', r.importMs),
  ])
  console.table([
    { frames: 'idle panel', 'median ms': median(r.idleFrames).toFixed(1), 'p95 ms': percentile(r.idleFrames, 0.95).toFixed(1), 'over 20 ms': late(r.idleFrames), of: r.idleFrames.length },
    {
      frames: 'a live batch or the baseline in every frame',
      'median ms': median(r.liveFrames).toFixed(1),
      'p95 ms': percentile(r.liveFrames, 0.95).toFixed(1),
      'over 20 ms': late(r.liveFrames),
      of: r.liveFrames.length,
    },
  ])
  // As shares of a 16 ms frame, from the timings of a case (one for a single measure): the median live batch must fit in one.
  const ofFrame = (what: string, timings: readonly number[], target?: number): ResultRow => ({
    case: what,
    baseline: `${FRAME_MS} ms frame`,
    measured: `${median(timings).toFixed(2)} ms`,
    ...ratioCells(
      timings.map((ms) => ms / FRAME_MS),
      target,
    ),
  })
  results.push(
    ofFrame(`live batch, median of ${r.batchMs.length} (${r.batchEvents} events)`, r.batchMs, 1),
    ofFrame('live batch, p90 (info)', [percentile(r.batchMs, 0.9)]),
    ofFrame(`live batch, max: ${r.batchMs.filter((ms) => ms > FRAME_MS).length} of ${r.batchMs.length} over 16 ms (info)`, [Math.max(...r.batchMs)]),
    ofFrame('draw an empty panel, median (info)', [base]),
    ofFrame('first render with everything recorded (info)', [r.firstMs]),
  )
  // Bounded DOM: only the rows in view exist, whatever the number recorded.
  expect(r.liveNodes).toBeLessThan(r.emptyNodes + 2_000)
})
