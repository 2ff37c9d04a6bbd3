// Zero-code mode's fetch pass-through: a fetch that is not an LLM request, through the patched
// fetch against the native one, in Chromium to a local server. Nothing here asserts on time: a
// missed target shows as `NO` in the `met` column.
//
// The page keeps a reference to the native fetch (as no page script could: it runs before the
// extension's) and then loads the extension's built MAIN-world script (dist/extension/page.js,
// exactly as shipped), so both run side by side in one page, through Chromium's real network stack.
// Native and patched batches take turns (in rotating order) and each round gives a ratio, so a
// slow moment of the machine falls on both sides of it. A second native batch in every round is
// the control: native against itself shows how far the ratio strays with nothing added.
//
// - The target row is timed as a user's tab runs, with nothing attached (support/unattached-page.ts).
// - For comparison, a plain function that only calls the native fetch takes its turn in the same
//   rounds; and the same rounds in a page Playwright drives, with DevTools' network recording on,
//   show what that recording costs any frame between the page and fetch (docs/development.md,
//   "Benchmarks").
// - A local request's own time varies far more than what the interceptor adds, so what it adds to
//   the call itself (no network) is timed on its own, and so is its check for tool-call markers, the
//   one part of it that grows with the body (the shipped function, built into the page as page.js
//   is built).
import { cp, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { build } from 'vite'
import { afterAll, it } from 'vitest'
import { perRoundRow, rowsWithControl } from './support/per-round-row.ts'
import { median } from './support/quantile.ts'
import type { RoundsWindow } from './support/rounds.ts'
import { openShippedScriptPage, PASS_THROUGH_CASES } from './support/shipped-script-page.ts'
import { keepForResults } from './support/results.ts'
import { spreadRow, type SpreadRow } from './support/spread-row.ts'
import { measureUnattached } from './support/unattached-page.ts'

const rows: SpreadRow[] = []
keepForResults('zero-code mode: fetch pass-through (Chromium)', () => rows)

afterAll(() => {
  console.log('\nfetch pass-through (ratio: median over rounds; spread: 25th–75th percentile of the rounds; interval: where the median falls 95 times in 100)')
  console.table(rows)
})

/**
 * The page's scripts: the native fetch kept, a plain function around it, the shipped marker check,
 * then the shipped page script.
 */
const PAGE_SCRIPTS = `<script>
window.nativeFetch = window.fetch
window.wrappedFetch = function fetch(input, init) { return window.nativeFetch.call(this, input, init) }
</script><script src="/marker-check.js"></script><script src="/page.js"></script>`

/** Rounds of batches (fewer in the page Playwright drives, which only informs), and requests a batch. */
const ROUNDS = 201
const DRIVEN_ROUNDS = 101
const BATCH = 4

/**
 * Native, patched, native and plain-wrapper batches of one request in turns, in the page:
 * milliseconds per request of each batch, by arm. Self-contained: it runs in the page from its source.
 */
async function timeArms([body, samples, batch]: readonly [string | null, number, number]): Promise<number[][]> {
  const { interleaved } = (window as unknown as RoundsWindow).benchRounds
  const w = window as unknown as { nativeFetch: typeof fetch; wrappedFetch: typeof fetch }
  if (w.nativeFetch === fetch) throw new Error('fetch is not patched: the page script did not run')
  const init: RequestInit | undefined = body === null ? undefined : { method: 'POST', body, headers: { 'content-type': 'application/json' } }
  const time = async (fn: typeof fetch) => {
    const start = performance.now()
    for (let i = 0; i < batch; i++) await (await fn('/api/x', init)).arrayBuffer()
    return (performance.now() - start) / batch
  }
  return interleaved(
    [w.nativeFetch, fetch, w.nativeFetch, w.wrappedFetch].map((fn) => () => time(fn)),
    samples,
    4,
  )
}

/**
 * What the interceptor adds to the call itself, without the network (calls with an aborted signal
 * reject at once, after every check it makes), and the shipped marker check on the body, run as
 * often as a round of calls. Self-contained, as `timeArms` is.
 */
async function timeCallAlone([body]: readonly [string | null]): Promise<{ calls: [number[], number[]]; checks: number[] }> {
  const { alternating } = (window as unknown as RoundsWindow).benchRounds
  const w = window as unknown as { nativeFetch: typeof fetch; mayHoldToolCall: (text: string) => boolean }
  const init: RequestInit | undefined = body === null ? undefined : { method: 'POST', body, headers: { 'content-type': 'application/json' } }
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
  const checks: number[] = []
  if (body !== null) {
    for (let i = 0; i < 21; i++) {
      const start = performance.now()
      for (let n = 0; n < count; n++) if (w.mayHoldToolCall(body)) throw new Error('the bench body holds a tool-call marker')
      checks.push((performance.now() - start) / count)
    }
  }
  return { calls, checks }
}

/** The built marker check's file name. */
const MARKER_CHECK = 'marker-check.js'

/** Builds the shipped marker check into `dir`, as page.js is built (minify off, one classic script). */
async function buildMarkerCheck(dir: string): Promise<void> {
  await build({
    configFile: false,
    logLevel: 'warn',
    build: {
      outDir: dir,
      emptyOutDir: false,
      target: 'es2022',
      minify: false,
      lib: { entry: resolve(import.meta.dirname, 'pass-through-page/marker-check.ts'), formats: ['iife'], name: 'markerCheck', fileName: () => MARKER_CHECK },
    },
  })
}

it('a fetch that is not an LLM request costs what the native one does', async () => {
  const markerDir = await mkdtemp(join(tmpdir(), 'rtg-bench-marker-'))
  await buildMarkerCheck(markerDir)
  // Built once: the page Playwright drives serves a copy.
  const driven = await openShippedScriptPage(`<!doctype html>${PAGE_SCRIPTS}`, { prepare: (dir) => cp(join(markerDir, MARKER_CHECK), join(dir, MARKER_CHECK)) })
  const unattached = <I, O>(measure: (input: I) => Promise<O>, input: I) => measureUnattached(PAGE_SCRIPTS, measure, input, { roots: [markerDir] })
  try {
    for (const [name, body] of PASS_THROUGH_CASES) {
      const [native, hooked, control, wrapped] = await unattached(timeArms, [body, ROUNDS, BATCH] as const)
      rows.push(...rowsWithControl(`pass-through: ${name}`, [native!, hooked!, control!], 1.05))
      rows.push(perRoundRow('  a plain function around fetch, for comparison (info)', native!, wrapped!))
      const recorded = await driven.page.evaluate(timeArms, [body, DRIVEN_ROUNDS, BATCH] as const)
      rows.push(perRoundRow('  in a page Playwright drives: the hook (info)', recorded[0]!, recorded[1]!))
      rows.push(perRoundRow('  in a page Playwright drives: a plain function around fetch (info)', recorded[0]!, recorded[3]!))
      const { calls, checks } = await unattached(timeCallAlone, [body] as const)
      rows.push(perRoundRow('  the fetch() call alone, no network (info)', ...calls))
      // As a ratio over the native request: what the check alone adds to it.
      if (checks.length > 0) {
        const request = median(native!)
        rows.push(
          spreadRow(
            '  its marker check alone, over the request (info)',
            request,
            request + median(checks),
            checks.map((t) => (request + t) / request),
          ),
        )
      }
    }
  } finally {
    await driven.close()
    await rm(markerDir, { recursive: true, force: true })
  }
})
