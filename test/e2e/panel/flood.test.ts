// A tab floods its panel with valid batches of distinct reminders and faults near the size limits,
// several times the panel's byte budget in all, sent from the tab's relay world as a compromised
// relay would send them (a page's own scripts cannot reach the relay). The panel stays responsive,
// its heap stays bounded, and another tab's panel shows its own agent complete.
import { execFile } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { CONTENT_PORT } from '../../../extension/src/protocol/messages.ts'
import { evaluateInRelayWorld } from '../support/relay-world.ts'
import { useStage } from '../support/stage.ts'

declare global {
  interface Window {
    callTool(agent: string, tool: string, args: unknown): Promise<string[]>
    received: string[]
  }
}

/**
 * The flooded panel's byte budget (two bytes a character). The shipped 64 MB works the same way;
 * a smaller one, set in this test's own build of the extension, lets a flood of several times it
 * run in seconds.
 */
const BUDGET_BYTES = 8 * 1024 * 1024
/** Per batch: reminders and faults of TEXT_CHARS each, just under the 4 MB batch cap. */
const REMINDERS_PER_BATCH = 55
const FAULTS_PER_BATCH = 5
const TEXT_CHARS = 64_000
/** Eight times the budget in reminders alone. */
const BATCHES = Math.ceil((8 * BUDGET_BYTES) / (2 * TEXT_CHARS * REMINDERS_PER_BATCH))
/** The flooded panel's JS heap after a collection, at most this much above the idle panel's. */
const HEAP_GROWTH_BOUND_BYTES = 16 * 1024 * 1024

let buildDir: string

beforeAll(async () => {
  buildDir = await mkdtemp(join(tmpdir(), 'rtg-flood-'))
  const root = resolve(import.meta.dirname, '../../..')
  await promisify(execFile)(process.execPath, [join(root, 'scripts/build.mjs'), 'extension'], {
    cwd: root,
    env: { ...process.env, RTG_DIST_DIR: buildDir, RTG_PANEL_MAX_BYTES: String(BUDGET_BYTES) },
  })
}, 60_000)

// Registered before the stage: the build is there when its browser launches, and removed after it closed.
afterAll(async () => {
  if (buildDir) await rm(buildDir, { recursive: true, force: true })
})

const stage = useStage({ folder: resolve(import.meta.dirname, 'pages'), launch: () => ({ extensionDir: join(buildDir, 'extension') }) })

/** The page's JS heap after a full collection. */
async function heapAfterCollection(page: Page): Promise<number> {
  const cdp = await stage.browser.context.newCDPSession(page)
  await cdp.send('HeapProfiler.collectGarbage')
  const { usedSize } = await cdp.send('Runtime.getHeapUsage')
  await cdp.detach()
  return usedSize
}

/**
 * Opens a port to the service worker from `page`'s relay world, as the relay does, and sends it
 * `events` (kept open for `flood`).
 */
function sendFromRelay(page: Page, events: unknown[]): Promise<void> {
  return evaluateInRelayWorld(
    stage.browser,
    page,
    ({ name, events }) => {
      const relay = globalThis as unknown as { floodPort?: chrome.runtime.Port; floodSeq?: number }
      relay.floodPort ??= chrome.runtime.connect({ name })
      relay.floodSeq = (relay.floodSeq ?? 0) + 1
      relay.floodPort.postMessage({ v: 1, kind: 'events', url: location.href, events, stream: 'flood', seq: relay.floodSeq })
    },
    { name: CONTENT_PORT, events },
  )
}

/** Sends the flood from the tab, as its relay would send batches; resolves when all are sent. */
function flood(page: Page): Promise<void> {
  return evaluateInRelayWorld(
    stage.browser,
    page,
    async ({ batches, reminders, faults, chars }) => {
      const relay = globalThis as unknown as { floodPort: chrome.runtime.Port; floodSeq: number }
      const pause = (ms: number) => new Promise((done) => setTimeout(done, ms))
      let n = 0
      for (let b = 0; b < batches; b++) {
        const events: unknown[] = []
        for (let i = 0; i < reminders; i++) {
          n += 1
          const text = `flood r-${n} `.padEnd(chars, 'abcdefghij'[n % 10])
          events.push({ type: 'reminder', at: Date.now(), agentId: 'hook:1', seq: n, tool: 'grep', count: 3, level: 'gentle', text })
        }
        for (let i = 0; i < faults; i++) events.push({ type: 'fault', at: Date.now(), message: `flood f-${b}-${i} `.padEnd(chars, 'z') })
        relay.floodSeq += 1
        relay.floodPort.postMessage({ v: 1, kind: 'events', url: location.href, events, stream: 'flood', seq: relay.floodSeq })
        // Within the router's burst per tab: the flood is delivered, not rate-dropped.
        await pause(20)
      }
    },
    { batches: BATCHES, reminders: REMINDERS_PER_BATCH, faults: FAULTS_PER_BATCH, chars: TEXT_CHARS },
  )
}

const numberIn = (text: string | null) => Number((text ?? '').replace(/[^\d]/g, ''))

it('a flooded panel stays responsive and bounded, and another tab’s panel is unaffected', { timeout: 40_000 }, async () => {
  const hostile = await stage.open('plain.html?flood')
  const quiet = await stage.open('agent.html?quiet')
  const floodPanel = await stage.browser.openPanel(hostile.tabId)
  const quietPanel = await stage.browser.openPanel(quiet.tabId)
  await expect.poll(() => floodPanel.getByTestId('connection').textContent()).toContain('Live')
  // The tab's port is up before the flood.
  await sendFromRelay(hostile.page, [{ type: 'fault', at: Date.now(), message: 'warm-up' }])
  await expect.poll(() => floodPanel.getByTestId('faults').textContent()).toContain('1 fault')
  const idleHeap = await heapAfterCollection(floodPanel)

  // The quiet tab's agent works while the other tab floods.
  const started = Date.now()
  const flooding = flood(hostile.page)
  const received: string[] = []
  for (let i = 0; i < 8; i++) received.push(...(await quiet.page.evaluate(() => window.callTool('steady', 'read', { f: 'a' }))))
  await flooding
  // thresholds 3, 5 and 8
  expect(received).toHaveLength(3)
  const flooded = Date.now()

  const sent = BATCHES * REMINDERS_PER_BATCH
  // Everything arrived and the byte budget, not the row cap, pushed the oldest out.
  await expect.poll(() => floodPanel.getByTestId('discarded').textContent().then(numberIn), { timeout: 30_000 }).toBeGreaterThan(sent - BUDGET_BYTES / (2 * TEXT_CHARS))

  const arrived = Date.now()
  // Responsive: a filter round trip answers (a liveness check, with a generous bound).
  await floodPanel.getByTestId('filter-text').fill(`flood r-${sent} `)
  await expect.poll(() => floodPanel.getByTestId('reminder-text').allTextContents()).toEqual([expect.stringMatching(new RegExp(`^flood r-${sent} `))])

  // Bounded: what the flood left in the panel's heap.
  const usedSize = await heapAfterCollection(floodPanel)
  expect(usedSize - idleHeap).toBeLessThan(HEAP_GROWTH_BOUND_BYTES)

  // The other tab's panel: its own agent, every call and both reminders, nothing dropped or lost.
  await expect.poll(() => quietPanel.getByTestId('agent-label').allTextContents()).toEqual(['steady'])
  await expect.poll(() => quietPanel.getByTestId('reminder-text').allTextContents()).toEqual(received)
  expect(await quietPanel.locator('[data-kind="call"]').count()).toBe(8)
  expect(await quietPanel.getByTestId('drops').count()).toBe(0)
  expect(await quietPanel.getByTestId('discarded').count()).toBe(0)
  console.log(
    `flood: posted in ${flooded - started} ms, arrived after ${arrived - started} ms; ${sent} reminders of ${TEXT_CHARS} chars in ${BATCHES} batches; panel heap ${(idleHeap / 1024 / 1024).toFixed(1)} MB idle, ${(usedSize / 1024 / 1024).toFixed(1)} MB flooded`,
  )
})
