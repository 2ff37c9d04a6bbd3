// The panel benchmark's page: the real Inspector drawn by Chromium, measured from inside the page.
// Every timing ends with a forced style and layout pass, so it counts what a frame must do before
// paint. bench/panel.bench.tsx builds this page, opens it and prints the numbers.
import { render } from 'preact'
import { act } from 'preact/test-utils'
import { createRepeatToolGuard, RECOMMENDED_CONFIG } from '../../engine/index.ts'
import { Inspector } from '../../extension/src/panel/components/inspector.tsx'
import { createInspectorStore, type InspectorStore } from '../../extension/src/panel/store/inspector-store.ts'
import type { InspectorEvent } from '../../extension/src/protocol/events.ts'
import { fromEngineEvent } from '../../extension/src/protocol/from-engine.ts'
import type { TabBatch } from '../../extension/src/protocol/messages.ts'

export interface PanelBenchOptions {
  readonly calls: number
  readonly agents: number
  /** Calls in one live batch: what a busy page sends in one animation frame. */
  readonly liveCalls: number
  /** Live batches, each ingested and drawn in a frame of its own. */
  readonly rounds: number
}

export interface PanelBenchResult {
  readonly events: number
  readonly rowsHeld: number
  readonly emptyMs: number
  readonly emptyNodes: number
  readonly firstMs: number
  readonly firstNodes: number
  readonly batchEvents: number
  readonly batchMs: readonly number[]
  readonly liveNodes: number
  readonly filterMs: number
  readonly importMs: number
  /** requestAnimationFrame intervals: idle, then with one live batch per frame. */
  readonly idleFrames: readonly number[]
  readonly liveFrames: readonly number[]
}

const URL_ = 'http://127.0.0.1/agent.html'
const sink = { current: () => RECOMMENDED_CONFIG, apply: async () => {} }

/** Events recorded the way the page records them: a real guard, turned into inspector events. */
function record(calls: number, agents: number, firstAgent: number): InspectorEvent[] {
  const guard = createRepeatToolGuard(RECOMMENDED_CONFIG)
  const events: InspectorEvent[] = []
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
function batches(events: readonly InspectorEvent[], calls: number): TabBatch[] {
  const out: TabBatch[] = []
  let current: InspectorEvent[] = []
  let n = 0
  for (const event of events) {
    current.push(event)
    if (event.type === 'call' && ++n % calls === 0) {
      out.push({ frameId: 0, url: URL_, events: current })
      current = []
    }
  }
  if (current.length > 0) out.push({ frameId: 0, url: URL_, events: current })
  return out
}

const root = document.getElementById('app')!
const layout = () => root.getBoundingClientRect().height

function timed(run: () => void): number {
  const t0 = performance.now()
  act(run)
  layout()
  return performance.now() - t0
}

const mount = (store: InspectorStore) => timed(() => render(<Inspector store={store} sink={sink} theme="light" />, root))
const unmount = () => act(() => render(null, root))
const nodes = () => root.querySelectorAll('*').length
const median = (values: readonly number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!

/** rAF intervals over `frames` frames, running `each` at the start of every frame. */
function frames(count: number, each: (frame: number) => void): Promise<number[]> {
  return new Promise((done) => {
    const intervals: number[] = []
    let last = 0
    const tick = (now: number) => {
      if (last > 0) intervals.push(now - last)
      last = now
      if (intervals.length >= count) return done(intervals)
      each(intervals.length)
      requestAnimationFrame(tick)
    }
    requestAnimationFrame(tick)
  })
}

async function runPanelBench(options: PanelBenchOptions): Promise<PanelBenchResult> {
  const history = record(options.calls, options.agents, 0)
  const live = batches(record(options.liveCalls * options.rounds, options.agents, options.agents), options.liveCalls)

  const empty: number[] = []
  let emptyNodes = 0
  for (let i = 0; i < 10; i++) {
    empty.push(mount(createInspectorStore()))
    emptyNodes = nodes()
    unmount()
  }

  const store = createInspectorStore()
  for (const batch of batches(history, 250)) store.ingest(batch)
  const first: number[] = []
  for (let i = 0; i < 5; i++) {
    first.push(mount(store))
    if (i < 4) unmount()
  }
  const firstNodes = nodes()

  const idleFrames = await frames(60, () => {})
  // Batches reach the panel as port messages, one task each, with the event loop (and the
  // collector's incremental steps) running between them: each is timed in a frame of its own.
  const batchMs: number[] = []
  const liveFrames = await frames(options.rounds, (i) => batchMs.push(timed(() => store.ingest(live[i]!))))
  const liveNodes = nodes()

  const filterMs = timed(() => store.setFilter({ tool: null, text: 'term 7' }))
  act(() => store.setFilter({ tool: null, text: '' }))

  const exported = store.exportSession()
  unmount()
  const copy = createInspectorStore()
  const t0 = performance.now()
  const imported = copy.importSession(exported)
  if (!imported.ok) throw new Error(imported.errors.join('\n'))
  const importMs = performance.now() - t0 + mount(copy)
  unmount()

  return {
    events: history.length,
    rowsHeld: store.stats().entries,
    emptyMs: median(empty),
    emptyNodes,
    firstMs: median(first),
    firstNodes,
    batchEvents: median(live.slice(0, options.rounds).map((b) => b.events.length)),
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
