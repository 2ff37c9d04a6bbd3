// The panel benchmark's page: the real Panel drawn by Chromium, measured from inside the page.
// Batches reach the store as the panel receives them: as messages on its port, through
// connectPanel (validation, then the store), with Preact scheduling the render as it does in the
// panel. Every timing starts where the work is triggered and ends once the microtasks that render
// have run and a forced style and layout pass is done: what a frame must do before paint.
// bench/panel.bench.tsx builds this page, opens it and prints the numbers.
import { render } from 'preact'
import { act } from 'preact/test-utils'
import { createRepeatToolGuard, RECOMMENDED_CONFIG } from '../../engine/index.ts'
import { Panel } from '../../extension/src/panel/components/panel.tsx'
import { connectPanel } from '../../extension/src/panel/host/panel-connection.ts'
import { createPanelStore, type PanelStore } from '../../extension/src/panel/store/panel-store.ts'
import { PROTOCOL_VERSION, type PanelEvent } from '../../extension/src/protocol/events.ts'
import { fromEngineEvent } from '../../extension/src/protocol/from-engine.ts'
import type { BackgroundToPanel, TabBatch } from '../../extension/src/protocol/messages.ts'

export interface PanelBenchOptions {
  readonly calls: number
  readonly agents: number
  /** Calls in one live batch: what a busy page sends in one animation frame. */
  readonly liveCalls: number
  /** Live batches, each delivered and drawn in a frame of its own, taking turns with the baseline. */
  readonly rounds: number
}

export interface PanelBenchResult {
  readonly events: number
  readonly rowsHeld: number
  /** The baseline: an empty panel drawn, once per round, in the frames between live batches. */
  readonly emptyMs: number
  readonly emptyNodes: number
  readonly firstMs: number
  readonly firstNodes: number
  readonly batchEvents: number
  readonly batchMs: readonly number[]
  readonly liveNodes: number
  readonly filterMs: number
  readonly importMs: number
  /** requestAnimationFrame intervals: idle, then with a live batch or the baseline in every frame. */
  readonly idleFrames: readonly number[]
  readonly liveFrames: readonly number[]
}

const URL_ = 'http://127.0.0.1/agent.html'
const sink = { current: () => RECOMMENDED_CONFIG, apply: async () => {} }

/** Events recorded the way the page records them: a real guard, turned into panel events. */
function record(calls: number, agents: number, firstAgent: number): PanelEvent[] {
  const guard = createRepeatToolGuard(RECOMMENDED_CONFIG)
  const events: PanelEvent[] = []
  guard.subscribe((event) => events.push(fromEngineEvent(event)))
  // Every fifth agent is a subagent of the one before it.
  const handles: object[] = []
  for (let i = 0; i < agents; i++) handles.push({ name: `agent ${firstAgent + i}`, ...(i % 5 === 4 ? { parent: handles[i - 1] } : {}) })
  for (let i = 0; i < calls; i++) {
    const step = Math.floor(i / agents)
    // Runs of 1 to 9 identical calls, a transparent todo_write now and then.
    const tool = step % 13 === 12 ? 'todo_write' : ['grep', 'read_file', 'search', 'run_tests'][Math.floor(step / 9) % 4]!
    guard.observe({ agent: handles[i % agents]!, name: tool, arguments: { query: `term ${Math.floor(step / (1 + (step % 9)))}`, path: 'src/components' } })
  }
  return events
}

/** Consecutive batches of `calls` calls each (with the reminders and resets between them). */
function batches(events: readonly PanelEvent[], calls: number): TabBatch[] {
  const out: TabBatch[] = []
  let current: PanelEvent[] = []
  let n = 0
  for (const event of events) {
    current.push(event)
    if (event.type === 'call' && ++n % calls === 0) {
      out.push({ frameId: 0, url: URL_, origin: 'http://127.0.0.1', events: current })
      current = []
    }
  }
  if (current.length > 0) out.push({ frameId: 0, url: URL_, origin: 'http://127.0.0.1', events: current })
  return out
}

const TAB = 1
const root = document.getElementById('app')!
const baselineRoot = document.getElementById('baseline')!
const layout = () => root.getBoundingClientRect().height + baselineRoot.getBoundingClientRect().height

/** Lets the microtasks run in which Preact renders what was scheduled (and what that scheduled). */
async function rendered(): Promise<void> {
  for (let i = 0; i < 3; i++) await null
}

/** From `run` to the end of the render it scheduled and a forced layout. */
async function timed(run: () => void): Promise<number> {
  const t0 = performance.now()
  run()
  await rendered()
  layout()
  return performance.now() - t0
}

/** A panel store fed through the panel's own port handler, by a stand-in for the port. */
function portFed(store: PanelStore): (message: BackgroundToPanel) => void {
  const listeners: ((message: unknown) => void)[] = []
  const port = {
    name: 'bench',
    onMessage: { addListener: (listener: (message: unknown) => void) => void listeners.push(listener) },
    onDisconnect: { addListener: () => {} },
    postMessage: () => {},
    disconnect: () => {},
  }
  connectPanel({ tabId: TAB, store, runtime: { connect: () => port as unknown as chrome.runtime.Port } })
  return (message) => {
    for (const listener of listeners) listener(message)
  }
}

const panelOf = (store: PanelStore) => <Panel store={store} sink={sink} theme="light" />
const mount = (store: PanelStore) => timed(() => render(panelOf(store), root))
const unmount = () => act(() => render(null, root))
const nodes = (of = root) => of.querySelectorAll('*').length
const median = (values: readonly number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!
/** A port message carrying `batch`, built ahead of time as Chrome hands one over: a fresh object. */
const batchMessage = (batch: TabBatch): BackgroundToPanel => structuredClone({ v: PROTOCOL_VERSION, kind: 'batch', tabId: TAB, batch })

/** rAF intervals over `count` frames, running (and awaiting) `each` at the start of every frame. */
function frames(count: number, each: (frame: number) => void | Promise<void>): Promise<number[]> {
  return new Promise((done) => {
    const intervals: number[] = []
    let last = 0
    const tick = async (now: number) => {
      if (last > 0) intervals.push(now - last)
      last = now
      if (intervals.length >= count) return done(intervals)
      await each(intervals.length)
      requestAnimationFrame(tick)
    }
    requestAnimationFrame(tick)
  })
}

async function runPanelBench(options: PanelBenchOptions): Promise<PanelBenchResult> {
  const history = record(options.calls, options.agents, 0)
  const live = batches(record(options.liveCalls * options.rounds, options.agents, options.agents), options.liveCalls).map(batchMessage)

  const store = createPanelStore()
  const deliver = portFed(store)
  deliver({ v: PROTOCOL_VERSION, kind: 'history', tabId: TAB, batches: [], truncated: false })
  for (const batch of batches(history, 250)) deliver(batchMessage(batch))
  const first: number[] = []
  for (let i = 0; i < 5; i++) {
    first.push(await mount(store))
    if (i < 4) unmount()
  }
  const firstNodes = nodes()

  const idleFrames = await frames(60, () => {})
  // Each round is two frames: a live batch delivered on the port, and the baseline (an empty
  // panel drawn over the same area, then removed untimed), in alternating order. Port messages
  // arrive one task each, with the event loop (and the collector's incremental steps) running
  // between them.
  const batchMs: number[] = []
  const empty: number[] = []
  let emptyNodes = 0
  const liveFrames = await frames(options.rounds * 2, async (frame) => {
    const round = frame >> 1
    if ((frame & 1) === (round & 1)) {
      batchMs.push(await timed(() => deliver(live[round]!)))
      return
    }
    empty.push(await timed(() => render(panelOf(createPanelStore()), baselineRoot)))
    emptyNodes = nodes(baselineRoot)
    act(() => render(null, baselineRoot))
    layout()
  })
  const liveNodes = nodes()

  const filterMs = await timed(() => store.setFilter({ tool: null, text: 'term 7' }))
  act(() => store.setFilter({ tool: null, text: '' }))

  const exported = store.exportSession()
  unmount()
  const copy = createPanelStore()
  const t0 = performance.now()
  const imported = copy.importSession(exported)
  if (!imported.ok) throw new Error(imported.errors.join('\n'))
  const importMs = performance.now() - t0 + (await mount(copy))
  unmount()

  return {
    events: history.length,
    rowsHeld: store.stats().entries,
    emptyMs: median(empty),
    emptyNodes,
    firstMs: median(first),
    firstNodes,
    batchEvents: median(live.slice(0, options.rounds).map((m) => (m.kind === 'batch' ? m.batch.events.length : 0))),
    batchMs,
    liveNodes,
    filterMs,
    importMs,
    idleFrames,
    liveFrames,
  }
}

declare global {
  interface Window {
    runPanelBench: typeof runPanelBench
  }
}
window.runPanelBench = runPanelBench
