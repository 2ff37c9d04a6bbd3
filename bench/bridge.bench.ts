// Events per second carried from the page to a panel port through the built extension (page
// script -> batching -> content relay -> service worker -> panel), against the same events
// produced while no panel is subscribed. Ratios of the same run; nothing here asserts on time.
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, test } from 'vitest'
import { PROTOCOL_VERSION } from '../extension/src/protocol/events.ts'
import { PANEL_PORT } from '../extension/src/protocol/messages.ts'
import type { PageGuard } from '../extension/src/page/page-api.ts'
import { launch, type Browser } from '../test/e2e/support/browser.ts'
import type { TestServer } from '../test/e2e/support/server.ts'
import { serveFixtures } from '../test/e2e/extension/fixture.ts'

const CALLS = 20_000
const ROUNDS = 5

interface Received {
  events: number
  batches: number
  target: number
  waiters: (() => void)[]
}

type BenchWindow = { __REPEAT_TOOL_GUARD__: PageGuard; __received?: Received }

let browser: Browser
let server: TestServer
let page: Page
let extensionPage: Page

beforeAll(async () => {
  server = await serveFixtures()
  browser = await launch()
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
 * calls); returns how many inspector events they produced. */
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
        // Let the batcher flush the last burst before the clock stops.
        setTimeout(() => done(events), 0)
      }),
    [CALLS, round] as const,
  )
}

/** Subscribes a counting listener to the tab on the panel's port. */
async function listen(tabId: number): Promise<void> {
  await extensionPage.evaluate(
    ({ name, v, tabId }) =>
      new Promise<void>((ready) => {
        const state: Received = { events: 0, batches: 0, target: Number.POSITIVE_INFINITY, waiters: [] }
        ;(window as unknown as BenchWindow).__received = state
        const port = chrome.runtime.connect({ name })
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

const counters = () => extensionPage.evaluate(() => {
  const { events, batches } = (window as unknown as BenchWindow).__received!
  return { events, batches }
})

/** Resolves once the panel port has received `target` events in all. */
function arrived(target: number): Promise<void> {
  return extensionPage.evaluate(
    (target) =>
      new Promise<void>((done) => {
        const state = (window as unknown as BenchWindow).__received!
        state.target = target
        if (state.events >= target) done()
        else state.waiters.push(done)
      }),
    target,
  )
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!

test('bridge throughput: page -> panel with batching vs no panel open', async () => {
  const tabId = await browser.tabId(page)
  // Warm up the page script, the relay's port and the worker.
  await produce(-1)

  const alone: number[] = []
  for (let round = 0; round < ROUNDS; round++) {
    const t0 = performance.now()
    await produce(round)
    alone.push(performance.now() - t0)
  }

  await listen(tabId)
  const carried: number[] = []
  const messages: number[] = []
  let events = 0
  for (let round = 0; round < ROUNDS; round++) {
    const before = await counters()
    const t0 = performance.now()
    events = await produce(ROUNDS + round)
    await arrived(before.events + events)
    carried.push(performance.now() - t0)
    messages.push((await counters()).batches - before.batches)
  }

  const aloneMs = median(alone)
  const carriedMs = median(carried)
  const perSecond = (ms: number) => Math.round((events / ms) * 1000)
  console.log(`bridge: ${CALLS} tool calls per round (${events} inspector events), median of ${ROUNDS} rounds`)
  console.table([
    { scenario: 'no panel open (produced in the page)', 'median ms': aloneMs.toFixed(1), 'events/s': perSecond(aloneMs), 'port messages': '-', ratio: '1.00' },
    {
      scenario: 'carried to a panel port, batched',
      'median ms': carriedMs.toFixed(1),
      'events/s': perSecond(carriedMs),
      'port messages': median(messages),
      ratio: (aloneMs / carriedMs).toFixed(2),
    },
  ])
})
