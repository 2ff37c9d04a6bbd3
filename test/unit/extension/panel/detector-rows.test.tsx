// @vitest-environment happy-dom
// The opt-in detectors in the panel: blocked calls, cycle reminders and the calls of their cycle,
// runs that ended on a changed result, and each agent's calls spent in reminded runs or cycles.
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/preact'
import { afterEach, describe, expect, it } from 'vitest'
import { RECOMMENDED_CONFIG, resolveConfig, type GuardConfigInput } from '../../../../engine/index.ts'
import { Panel } from '../../../../extension/src/panel/components/panel.tsx'
import { createPanelStore, type PanelStore } from '../../../../extension/src/panel/store/panel-store.ts'
import { checkPanelEvent } from '../../../../extension/src/protocol/validate.ts'
import { recordingPage, repeat, type RecordingPage } from './support/recorded-session.ts'
import { engineError } from '../../../support/engine-error.ts'

afterEach(cleanup)

const sink = { current: () => RECOMMENDED_CONFIG, apply: async () => {} }

function recorded(config: GuardConfigInput, drive: (page: RecordingPage, agent: object) => void): PanelStore {
  const store = createPanelStore()
  const page = recordingPage({ ...RECOMMENDED_CONFIG, ...config })
  drive(page, { name: 'looper' })
  store.ingest(page.batch())
  return store
}

const onlyAgent = (store: PanelStore) => store.agents()[0]!.record

function pingPong(page: RecordingPage, agent: object, rounds: number): void {
  for (let i = 0; i < rounds; i++) {
    page.guard.observe({ agent, name: 'read_file', arguments: { path: 'a' } })
    page.guard.observe({ agent, name: 'read_file', arguments: { path: 'b' } })
  }
}

describe('the store with the detectors on', () => {
  it('keeps a blocked call as a timeline row of its own, between the calls', () => {
    const store = recorded({ stopAfter: 3 }, (page, agent) => {
      repeat(page, agent, 'grep', { q: 1 }, 3)
      const decision = page.guard.preExecute({ agent, name: 'grep', arguments: { q: 1 } })
      expect(decision.kind).toBe('block')
      page.guard.observe({ agent, name: 'grep', arguments: { q: 1 } }, { denied: true })
    })
    const view = store.timeline(null)
    const kinds = []
    for (let i = view.start; i < view.end; i++) kinds.push(view.event(i).type)
    expect(kinds).toEqual(['call', 'call', 'call', 'reminder', 'blocked', 'call'])
    const copy = createPanelStore()
    expect(copy.importSession(store.exportSession()).ok).toBe(true)
    expect(copy.session().entries.map((e) => e.event.type)).toEqual(kinds)
  })

  it('a blocked row replayed after a reconnect is recognised, and the tool filter keeps it', () => {
    const store = createPanelStore()
    const page = recordingPage({ ...RECOMMENDED_CONFIG, stopAfter: 2 })
    const agent = { name: 'looper' }
    repeat(page, agent, 'grep', { q: 1 }, 2)
    page.guard.preExecute({ agent, name: 'grep', arguments: { q: 1 } })
    page.guard.observe({ agent, name: 'read', arguments: {} })
    const batch = page.batch()
    store.ingest(batch)
    store.ingest(batch, { replayed: true })
    const count = (tool: string | null) => {
      store.setFilter({ tool, text: '' })
      const view = store.timeline(null)
      let n = 0
      for (let i = view.start; i < view.end; i++) if (view.event(i).type === 'blocked') n += 1
      return n
    }
    expect(count(null)).toBe(1)
    expect(count('grep')).toBe(1)
    expect(count('read')).toBe(0)
    store.setFilter({ tool: null, text: 'stopAfter: 2' })
    expect(store.timeline(null).end - store.timeline(null).start).toBe(1)
  })

  it('marks the calls of a reminded cycle, and keeps the cycle for the chain view until a call leaves it', () => {
    const store = recorded({ cycles: { maxPeriod: 3, repeats: 2 } }, (page, agent) => pingPong(page, agent, 2))
    const agent = onlyAgent(store)
    expect(agent.cycle).toEqual({ tools: ['read_file', 'read_file'], periods: 2, fromSeq: 1, toSeq: 4 })
    const view = store.timeline(null)
    const marked = []
    for (let i = view.start; i < view.end; i++) if (store.inCycle(view.entry(i))) marked.push(i)
    expect(marked).toHaveLength(4)

    const page = recordingPage({ ...RECOMMENDED_CONFIG, cycles: { maxPeriod: 3, repeats: 2 } })
    const looper = { name: 'looper' }
    pingPong(page, looper, 2)
    page.guard.observe({ agent: looper, name: 'write_file', arguments: {} })
    const other = createPanelStore()
    other.ingest(page.batch())
    expect(onlyAgent(other).cycle).toBeUndefined()
  })

  it('counts the calls spent in runs and cycles that reached a reminder, once each, and again on import', () => {
    // A run of 6 that reminded at 3 and 5: all six were spent; the two calls before it were not.
    const runs = recorded({}, (page, agent) => {
      repeat(page, agent, 'list', {}, 2)
      repeat(page, agent, 'grep', { q: 1 }, 6)
      repeat(page, agent, 'read', {}, 2)
    })
    expect(onlyAgent(runs)).toMatchObject({ calls: 10, wasted: 6 })
    // A ping-pong of three rounds reminded after two: the four calls of those rounds.
    const cycle = recorded({ cycles: { maxPeriod: 3, repeats: 2 } }, (page, agent) => pingPong(page, agent, 2))
    expect(onlyAgent(cycle).wasted).toBe(4)
    const copy = createPanelStore()
    expect(copy.importSession(runs.exportSession()).ok).toBe(true)
    expect(onlyAgent(copy).wasted).toBe(6)
  })

  it('a clear starts the count over', () => {
    const store = recorded({}, (page, agent) => repeat(page, agent, 'grep', { q: 1 }, 3))
    expect(onlyAgent(store).wasted).toBe(3)
    store.clear()
    expect(onlyAgent(store).wasted).toBe(0)
  })
})

describe('the protocol carries the zero-code "would block"', () => {
  const blocked = { type: 'blocked', at: 1, agentId: 'wire:1', tool: 'grep', count: 3, feedback: 'Blocked' }
  it('accepts it as an optional boolean, and nothing else', () => {
    expect(checkPanelEvent(blocked).ok).toBe(true)
    expect(checkPanelEvent({ ...blocked, wouldBlock: true }).ok).toBe(true)
    expect(checkPanelEvent({ ...blocked, wouldBlock: 'yes' })).toMatchObject({ ok: false })
  })
})

describe('the timeline and the agent list', () => {
  const rowsOf = (kind: string) => screen.getAllByTestId('timeline-row').filter((row) => row.getAttribute('data-kind') === kind)

  it('shows a blocked call, and "would block" when zero-code mode could only advise', () => {
    const store = createPanelStore()
    render(<Panel store={store} sink={sink} theme="light" />)
    act(() =>
      store.ingest({
        frameId: 0,
        url: 'http://x/',
        events: [
          { type: 'blocked', at: 1, agentId: 'hook:1', tool: 'grep', count: 5, feedback: 'Blocked by repeat-tool-guard: grep …' },
          { type: 'blocked', at: 2, agentId: 'wire:1', tool: 'grep', count: 5, feedback: 'Blocked by repeat-tool-guard: grep …', wouldBlock: true },
        ],
      }),
    )
    expect(rowsOf('blocked').map((row) => within(row).getByTestId('blocked-badge').textContent)).toEqual(['blocked', 'would block'])
    expect(rowsOf('blocked')[0]!.textContent).toContain('a run of 5 already')
  })

  it('names a cycle reminder as such, highlights its calls and draws the cycle in the chain view', async () => {
    const store = recorded({ cycles: { maxPeriod: 3, repeats: 2 } }, (page, agent) => pingPong(page, agent, 2))
    render(<Panel store={store} sink={sink} theme="light" />)
    expect(within(rowsOf('reminder')[0]!).getByTestId('reminder-badge').textContent).toBe('Cycle reminder')
    expect(rowsOf('call').map((row) => row.getAttribute('data-in-cycle'))).toEqual(['true', 'true', 'true', 'true'])
    act(() => screen.getByTestId('agent-row').click())
    const cycle = await screen.findByTestId('cycle-view')
    expect(
      within(cycle)
        .getAllByTestId('cycle-period')
        .map((p) => p.textContent),
    ).toEqual(['read_fileread_file', 'read_fileread_file'])
    expect(screen.getByTestId('agent-wasted').textContent).toBe('4 wasted')
  })

  it('says a run ended because its result changed', () => {
    const store = recorded({ resultAware: true }, (page, agent) => {
      page.guard.observe({ agent, name: 'poll', arguments: {} }, { content: 'running 1/4' })
      page.guard.observe({ agent, name: 'poll', arguments: {} }, { content: 'running 2/4' })
    })
    render(<Panel store={store} sink={sink} theme="light" />)
    expect(rowsOf('reset').map((row) => row.textContent)).toEqual([expect.stringContaining('Chain reset by result changed (the same call got a new result): a run of 1 ended')])
  })
})

describe('the Config tab with the detector keys', () => {
  function memorySink() {
    let current = RECOMMENDED_CONFIG
    const saved: unknown[] = []
    return { saved, current: () => current, apply: async (config: typeof RECOMMENDED_CONFIG) => void (saved.push(config), (current = config)) }
  }

  it('gives the engine’s exact errors for bad detector values and saves good ones, which read back', async () => {
    const store = createPanelStore()
    const configSink = memorySink()
    render(<Panel store={store} sink={configSink} theme="light" />)
    act(() => store.ingest({ frameId: 0, url: 'http://x/', events: [{ type: 'config', at: 1, config: RECOMMENDED_CONFIG }] }))
    act(() => screen.getByTestId('tab-config').click())
    expect(screen.getByTestId('config-in-force-detectors').textContent).toBe('none: exact repeats only')
    const input = screen.getByTestId('config-input') as HTMLTextAreaElement
    for (const bad of [{ cycles: { maxPeriod: 7, repeats: 2 } }, { stopAfter: 1 }, { tools: [{ match: 'grep', threshold: [3] }] }, { countBy: 'calls' }]) {
      fireEvent.input(input, { target: { value: JSON.stringify(bad) } })
      expect(screen.getByTestId('config-error').textContent).toBe(engineError(bad))
    }
    const good = { cycles: { maxPeriod: 3, repeats: 2 }, stopAfter: 5, resultAware: true, tools: [{ match: 'grep', countBy: 'tool' }] }
    fireEvent.input(input, { target: { value: JSON.stringify(good) } })
    fireEvent.click(screen.getByTestId('config-apply'))
    await waitFor(() => expect(screen.getByTestId('config-status').textContent).toBe('Saved.'))
    expect(configSink.saved).toEqual([{ ...RECOMMENDED_CONFIG, ...good }])
    // The editor's own text of the saved config is a config the engine takes back unchanged.
    expect(resolveConfig(JSON.parse(input.value), RECOMMENDED_CONFIG)).toEqual(configSink.saved[0])
    act(() => store.ingest({ frameId: 0, url: 'http://x/', events: [{ type: 'config', at: 2, config: resolveConfig(good, RECOMMENDED_CONFIG) }] }))
    expect(screen.getByTestId('config-in-force-detectors').textContent).toBe('result-aware · cycles of 2..3 calls, 2 times · stop after 5 · 1 per-tool override (grep)')
  })
})
