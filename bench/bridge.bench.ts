// Events per second carried from the page to a panel port through the built extension (page
// script -> batching -> content relay -> service worker -> panel), against the same events
// carried with no panel subscribed. Both arms start at the first call and end when the last event
// has arrived at the end of its path: the service worker with no panel, the panel port with one.
// Rounds of the two arms take turns, so load from elsewhere falls on both alike; each round pair
// gives a ratio. Nothing here asserts on time.
import type { Page, Worker } from 'playwright-core'
import { afterAll, beforeAll, test } from 'vitest'
import { PROTOCOL_VERSION } from '../extension/src/protocol/events.ts'
import { CONTENT_PORT, PANEL_PORT } from '../extension/src/protocol/messages.ts'
import type { PageGuard } from '../extension/src/page/page-api.ts'
import { launch, type Browser } from '../test/e2e/support/browser.ts'
import type { TestServer } from '../test/e2e/support/server.ts'
import { serveFixtures } from '../test/e2e/extension/fixture.ts'
import { keepForResults, type ResultRow } from './support/results.ts'
import { ratioCells } from './support/spread-row.ts'

// Each round stays within the burst the service worker allows one tab (tab-rate.ts: 20,000 events,
// refilled at 10,000 a second), and the bucket refills between rounds, outside the timed window:
// the bench measures what batching carries, not what the rate limit drops.
const CALLS = 10_000
const REFILL_MS = 2_500
const ROUNDS = 7

/** What one end of the path has received, and who waits for how much. */
interface Received {
  events: number
  batches: number
  target: number
  waiters: (() => void)[]
}

type BenchWindow = { __REPEAT_TOOL_GUARD__: PageGuard; __received?: Received; __panelPort?: chrome.runtime.Port }
type WorkerScope = { __received?: Received }

let browser: Browser
let server: TestServer
let page: Page
let worker: Worker
let extensionPage: Page

beforeAll(async () => {
  server = await serveFixtures()
  browser = await launch()
  worker = await browser.worker()
  // The worker counts what reaches it from content ports with a listener of its own, beside the
  // router's; installed before the page loads, so it sees the page's port from the start.
  await worker.evaluate((contentPort) => {
    const state: Received = { events: 0, batches: 0, target: Number.POSITIVE_INFINITY, waiters: [] }
    ;(globalThis as WorkerScope).__received = state
    chrome.runtime.onConnect.addListener((port) => {
      if (port.name !== contentPort) return
      port.onMessage.addListener((m: { kind?: string; events?: unknown[] }) => {
        if (m.kind !== 'events') return
        state.batches++
        state.events += m.events!.length
        if (state.events >= state.target) for (const wake of state.waiters.splice(0)) wake()
      })
    })
  }, CONTENT_PORT)
  page = await browser.context.newPage()
  await page.goto(`${server.origin}/agent.html?bench`)
  // Any extension page may open the panel's port; this one inspects no tab itself.
  extensionPage = await browser.openPanel(-1)
})

afterAll(async () => {
  await browser?.close()
  await server?.close()
})

/** Runs CALLS tool calls of one fresh agent in the page (repeats, resets, reminders, untracked
 * calls); returns how many panel events they produced. */
function produce(round: number): Promise<number> {
  return page.evaluate(
    ([calls, round]) =>
      new Promise<number>((done) => {
        const guard = (window as unknown as BenchWindow).__REPEAT_TOOL_GUARD__
        let events = 0
        const stop = guard.subscribe(() => void events++)
        const agent = { name: `bench ${round}` }
        for (let i = 0; i < calls; i++) guard.observe({ agent, name: i % 10 === 9 ? 'todo_write' : 'grep', arguments: { q: `term ${i >> 2}`, limit: 20 } })
        stop()
        done(events)
      }),
    [CALLS, round] as const,
  )
}

/** Subscribes a counting listener to the tab on the panel's port; resolves once it has the history. */
async function listen(tabId: number): Promise<void> {
  await extensionPage.evaluate(
    ({ name, v, tabId }) =>
      new Promise<void>((ready) => {
        const state: Received = { events: 0, batches: 0, target: Number.POSITIVE_INFINITY, waiters: [] }
        const w = window as unknown as BenchWindow
        w.__received = state
        const port = (w.__panelPort = chrome.runtime.connect({ name }))
        port.onMessage.addListener((m: { kind: string; batch?: { events: unknown[] } }) => {
          if (m.kind === 'history') return ready()
          if (m.kind !== 'batch') return
          state.batches++
          state.events += m.batch!.events.length
          if (state.events >= state.target) for (const wake of state.waiters.splice(0)) wake()
        })
        port.postMessage({ v, kind: 'subscribe', tabId })
      }),
    { name: PANEL_PORT, v: PROTOCOL_VERSION, tabId },
  )
}

/** Closes the panel's port: the tab has no panel again. */
const unlisten = () => extensionPage.evaluate(() => (window as unknown as BenchWindow).__panelPort!.disconnect())

// The same counters and the same wait, at either end of the path.
const readCounters = () => {
  const { events, batches } = ((globalThis as WorkerScope).__received ?? (globalThis as unknown as BenchWindow).__received)!
  return { events, batches }
}
// Bounded: events the path drops (a rate limit, a cap) would otherwise leave the bench waiting.
const waitFor = (target: number) =>
  new Promise<void>((done, fail) => {
    const state = ((globalThis as WorkerScope).__received ?? (globalThis as unknown as BenchWindow).__received)!
    state.target = target
    if (state.events >= target) return done()
    state.waiters.push(done)
    setTimeout(() => fail(new Error(`${state.events} of ${target} events arrived in 60 s`)), 60_000)
  })
const atWorker = { counters: () => worker.evaluate(readCounters), arrived: (target: number) => worker.evaluate(waitFor, target) }
const atPanel = { counters: () => extensionPage.evaluate(readCounters), arrived: (target: number) => extensionPage.evaluate(waitFor, target) }

const results: ResultRow[] = []
keepForResults('bridge: events carried to a panel vs to the service worker alone (Chromium)', () => results)

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!

test('bridge throughput: page -> panel with batching vs no panel open', async () => {
  const tabId = await browser.tabId(page)
  // Warm up the page script, the relay's port and the worker.
  await produce(-1)

  /** One round: from the first call to the last event at `end`; returns ms and port messages. */
  async function round(n: number, end: typeof atWorker): Promise<{ ms: number; messages: number; events: number }> {
    const before = await end.counters()
    const t0 = performance.now()
    const events = await produce(n)
    await end.arrived(before.events + events)
    const ms = performance.now() - t0
    return { ms, messages: (await end.counters()).batches - before.batches, events }
  }
  const alone = async (n: number) => round(n, atWorker)
  const carried = async (n: number) => {
    await new Promise((refilled) => setTimeout(refilled, REFILL_MS))
    await listen(tabId)
    try {
      return await round(n, atPanel)
    } finally {
      await unlisten()
    }
  }

  const aloneMs: number[] = []
  const carriedMs: number[] = []
  const ratios: number[] = []
  const messages: number[] = []
  let events = 0
  for (let n = 0; n < ROUNDS; n++) {
    // The arms take turns, each first in every other round.
    let a: Awaited<ReturnType<typeof round>>
    let c: Awaited<ReturnType<typeof round>>
    if (n % 2 === 0) {
      a = await alone(2 * n)
      c = await carried(2 * n + 1)
    } else {
      c = await carried(2 * n)
      a = await alone(2 * n + 1)
    }
    aloneMs.push(a.ms)
    carriedMs.push(c.ms)
    ratios.push(a.ms / c.ms)
    messages.push(c.messages)
    events = c.events
  }

  const perSecond = (ms: number) => Math.round((events / ms) * 1000)
  console.log(`bridge: ${CALLS} tool calls per round (${events} panel events), medians of ${ROUNDS} interleaved round pairs`)
  console.table([
    { scenario: 'no panel open: first call -> last event at the service worker', 'median ms': median(aloneMs).toFixed(1), 'events/s': perSecond(median(aloneMs)), 'port messages': '-', ratio: '1.00' },
    {
      scenario: 'a panel open: first call -> last event at the panel port',
      'median ms': median(carriedMs).toFixed(1),
      'events/s': perSecond(median(carriedMs)),
      'port messages': median(messages),
      ratio: median(ratios).toFixed(2),
    },
  ])
  results.push({
    case: `events per second at a panel port vs at the service worker alone (${events} events a round)`,
    baseline: `${perSecond(median(aloneMs))} events/s`,
    measured: `${perSecond(median(carriedMs))} events/s`,
    ...ratioCells(ratios),
  })
})
