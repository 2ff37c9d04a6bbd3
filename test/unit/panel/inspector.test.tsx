// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/preact'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { RECOMMENDED_CONFIG, type GuardConfig } from '../../../engine/index.ts'
import { readStoredConfig } from '../../../extension/src/content/stored-config.ts'
import { Panel } from '../../../extension/src/panel/components/panel.tsx'
import type { ConfigSink } from '../../../extension/src/panel/components/config-sink.ts'
import { createPanelStore, type PanelStore } from '../../../extension/src/panel/store/panel-store.ts'
import { PAGE_URL, recordingPage, repeat } from './recorded-session.ts'
import { engineError } from '../../support/engine-error.ts'

afterEach(cleanup)

/** A native `change` event (this library's `fireEvent.change` fires `input` for Preact). */
function change(element: HTMLElement, target: { value?: string; files?: File[] }) {
  if (target.value !== undefined) (element as HTMLSelectElement).value = target.value
  if (target.files !== undefined) Object.defineProperty(element, 'files', { configurable: true, value: target.files })
  fireEvent(element, new Event('change', { bubbles: true }))
}

function memorySink(initial: GuardConfig = RECOMMENDED_CONFIG): ConfigSink & { saved: GuardConfig[] } {
  let current = initial
  const saved: GuardConfig[] = []
  return {
    saved,
    current: () => current,
    apply: async (config) => {
      saved.push(config)
      current = config
    },
  }
}

function mount(store: PanelStore = createPanelStore(), sink = memorySink()) {
  render(<Panel store={store} sink={sink} theme="light" />)
  return { store, sink }
}

function ingestAgent(store: PanelStore, name = 'researcher', times = 5) {
  const page = recordingPage()
  repeat(page, { name }, 'grep', { q: 'x' }, times)
  act(() => store.ingest({ frameId: 0, url: 'http://x/', events: [{ type: 'config', at: 1, config: page.guard.config }, ...page.take()] }))
  return page
}

describe('Panel', () => {
  it('says what to do while no agent has been seen, above the page’s own rows, until one is', async () => {
    const { store } = mount()
    expect(screen.getByTestId('no-agent-yet').textContent).toContain('No agent seen on this page yet.')
    // What every page sends first, agent or not: its load (a timeline row) and its config.
    act(() => store.ingest({ frameId: 0, url: PAGE_URL, events: [{ type: 'page-load', at: 1, url: PAGE_URL }, { type: 'config', at: 1, config: RECOMMENDED_CONFIG }] }))
    expect(screen.getAllByTestId('timeline-row').map((row) => row.getAttribute('data-kind'))).toEqual(['page-load'])
    const guidance = screen.getByTestId('no-agent-yet')
    expect(guidance.textContent).toContain('No agent seen on this page yet.')
    expect(guidance.textContent).toContain('window.__REPEAT_TOOL_GUARD__.postExecute(...)')

    // still there when a filter hides every row
    fireEvent.input(screen.getByTestId('filter-text'), { target: { value: 'nothing like it' } })
    await waitFor(() => expect(screen.getByTestId('empty-state').textContent).toContain('No rows match the filter.'))
    expect(screen.getByTestId('no-agent-yet')).toBeTruthy()
    fireEvent.input(screen.getByTestId('filter-text'), { target: { value: '' } })
    await waitFor(() => expect(screen.getAllByTestId('timeline-row')).toHaveLength(1))

    ingestAgent(store, 'first', 1)
    expect(screen.queryByTestId('no-agent-yet')).toBeNull()
    expect(screen.getAllByTestId('timeline-row').map((row) => row.getAttribute('data-kind'))).toEqual(['page-load', 'call'])
  })

  it('shows agents, their run, and both reminders as the model sees them', async () => {
    const { store } = mount()
    ingestAgent(store)
    const row = await screen.findByTestId('agent-row')
    expect(within(row).getByTestId('agent-label').textContent).toBe('researcher')
    expect(within(row).getByTestId('agent-kind').textContent).toBe('hook')
    expect(within(row).getByTestId('agent-count').textContent).toBe('5')
    expect(within(row).getByTestId('agent-next').textContent).toBe('8')
    const reminders = screen.getAllByTestId('reminder-text').map((el) => el.textContent)
    expect(reminders).toHaveLength(2)
    expect(reminders[0]).toMatch(/^You are repeating the exact same tool call/)
    expect(reminders[1]).toBe(
      'Repeated tool call detected:\n- tool: grep\n- consecutive_calls: 5\n- arguments: {"q":"x"}\nThe repeated calls are not making progress. Do not call this tool with these exact arguments again. Inspect the latest result and choose a different action, different arguments, or finish the task if enough evidence has been gathered.',
    )
  })

  it('draws the selected agent’s run against the thresholds', async () => {
    const { store } = mount()
    ingestAgent(store, 'a', 4)
    fireEvent.click(await screen.findByTestId('agent-row'))
    const chain = screen.getByTestId('chain-view')
    expect(within(chain).getByRole('meter').getAttribute('aria-valuenow')).toBe('4')
    expect(chain.querySelectorAll('.rtg-cell')).toHaveLength(8)
    expect(chain.querySelectorAll('.rtg-fired')).toHaveLength(1)
    expect(screen.getByTestId('chain-caption').textContent).toBe('Run of 4 identical calls. Next reminder (detailed) at 5: 1 more identical call.')
  })

  it('nests subagents and hides them with their parent', async () => {
    const { store } = mount()
    const page = recordingPage()
    const lead = { name: 'lead' }
    page.guard.observe({ agent: lead, name: 'a', arguments: 1 })
    page.guard.observe({ agent: { name: 'sub', parent: lead }, name: 'b', arguments: 1 })
    act(() => store.ingest(page.batch()))
    expect(screen.getAllByTestId('agent-label').map((el) => el.textContent)).toEqual(['lead', 'sub'])
    fireEvent.click(screen.getByLabelText('Hide subagents'))
    expect(screen.getAllByTestId('agent-label').map((el) => el.textContent)).toEqual(['lead'])
  })

  it('renders page data as text, never as markup', async () => {
    const { store } = mount()
    const page = recordingPage()
    repeat(page, { name: '<img src=x onerror="window.pwned=1">' }, '<b>bold</b><script>window.pwned=1</script>', '<i>x</i>', 3)
    act(() => store.ingest(page.batch()))
    const tool = (await screen.findAllByTestId('call-tool'))[0]!
    expect(tool.textContent).toBe('<b>bold</b><script>window.pwned=1</script>')
    expect(document.querySelector('.rtg-inspector b, .rtg-inspector script, .rtg-inspector img')).toBeNull()
    expect(screen.getByTestId('agent-label').textContent).toBe('<img src=x onerror="window.pwned=1">')
  })

  it('expands a call to its full canonical arguments', async () => {
    const { store } = mount()
    ingestAgent(store, 'a', 1)
    fireEvent.click((await screen.findAllByTestId('call-tool'))[0]!)
    expect(screen.getByTestId('call-args').textContent).toBe('{"q":"x"}')
  })

  it('pauses and resumes recording from the toolbar', async () => {
    const { store } = mount()
    fireEvent.click(screen.getByTestId('record-toggle'))
    expect(store.paused).toBe(true)
    expect(screen.getByTestId('paused-banner')).toBeTruthy()
    ingestAgent(store, 'a', 2)
    expect(screen.queryAllByTestId('timeline-row')).toHaveLength(0)
    fireEvent.click(screen.getByTestId('record-toggle'))
    expect(store.paused).toBe(false)
  })

  it('clears the log and toggles preserve-log', () => {
    const { store } = mount()
    ingestAgent(store, 'a', 3)
    expect(screen.getAllByTestId('timeline-row').length).toBeGreaterThan(0)
    fireEvent.click(screen.getByTestId('clear'))
    expect(screen.queryAllByTestId('timeline-row')).toHaveLength(0)
    fireEvent.click(screen.getByTestId('preserve-log'))
    expect(store.preserveLog).toBe(true)
  })

  it('filters by tool and by text', async () => {
    const { store } = mount()
    const page = recordingPage()
    const agent = { name: 'a' }
    repeat(page, agent, 'grep', { q: 'needle' }, 1)
    repeat(page, agent, 'read', { f: 'hay' }, 1)
    act(() => store.ingest(page.batch()))
    change(screen.getByTestId('filter-tool'), { value: 'read' })
    expect(screen.getAllByTestId('call-tool').map((el) => el.textContent)).toEqual(['read'])
    change(screen.getByTestId('filter-tool'), { value: '' })
    fireEvent.input(screen.getByTestId('filter-text'), { target: { value: 'NEEDLE' } })
    await waitFor(() => expect(screen.getAllByTestId('call-tool').map((el) => el.textContent)).toEqual(['grep']))
    fireEvent.input(screen.getByTestId('filter-text'), { target: { value: 'nothing like it' } })
    await waitFor(() => expect(screen.getByTestId('empty-state').textContent).toContain('No rows match the filter.'))
    fireEvent.click(screen.getByText('Clear the filter'))
    expect(screen.getAllByTestId('call-tool')).toHaveLength(2)
  })

  it('counts dropped messages with their reasons, and shows faults', () => {
    const { store } = mount()
    expect(screen.queryByTestId('drops')).toBeNull()
    act(() => {
      store.setDrops({ shape: 2 })
      store.countDrop('size')
      store.ingest({ frameId: 0, url: 'u', events: [{ type: 'fault', at: 1, message: 'postExecute: boom' }] })
    })
    expect(screen.getByTestId('drops').textContent).toContain('3 messages dropped')
    fireEvent.click(screen.getByTestId('drops'))
    expect(screen.getByTestId('drops-detail').textContent).toContain('malformed (wrong shape)')
    fireEvent.click(screen.getByTestId('faults'))
    expect(screen.getByTestId('faults-detail').textContent).toContain('postExecute: boom')
  })

  it('tells wire agents apart and notes what zero-code mode cannot see', () => {
    const { store } = mount()
    act(() =>
      store.ingest({
        frameId: 0,
        url: 'u',
        events: [
          { type: 'agent', at: 1, agent: { id: 'wire:1', kind: 'wire', label: 'You are a planner', format: 'openai-chat' } },
          { type: 'request', at: 2, agentId: 'wire:1', url: 'http://127.0.0.1/v1/chat/completions', format: 'openai-chat', calls: 3, remindersInserted: 1, rewritten: true },
          { type: 'reminder', at: 2, agentId: 'wire:1', seq: 3, tool: 'search', count: 3, level: 'gentle', text: 'You are repeating', placement: 'messages[7]' },
        ],
      }),
    )
    expect(screen.getByTestId('agent-kind').textContent).toBe('wire')
    expect(screen.queryByTestId('agent-reach')).toBeNull()
    expect(screen.getByTestId('wire-note').textContent).toContain('workers and service workers, WebSockets')
    expect(screen.getByText('messages[7]')).toBeTruthy()
    expect(screen.getByText(/3 calls · 1 reminder inserted/)).toBeTruthy()
  })

  it('renders only the visible rows of a long timeline', () => {
    const store = createPanelStore()
    const page = recordingPage({ thresholds: [1_000_000] })
    const agent = { name: 'busy' }
    for (let i = 0; i < 10_000; i++) page.guard.observe({ agent, name: 'poll', arguments: 1 })
    store.ingest(page.batch())
    mount(store)
    const rendered = screen.getAllByTestId('timeline-row').length
    expect(rendered).toBeGreaterThan(10)
    expect(rendered).toBeLessThan(100)
    // following the live end: the newest call is on screen
    expect(screen.getAllByTestId('timeline-row').at(-1)!.textContent).toContain('#10000')
  })
})

describe('theme', () => {
  it('follows DevTools’ theme when given, else the system’s, live', () => {
    const listeners: (() => void)[] = []
    const query = { matches: true, addEventListener: (_: string, l: () => void) => listeners.push(l), removeEventListener: vi.fn() }
    vi.stubGlobal('matchMedia', () => query)
    try {
      render(<Panel store={createPanelStore()} sink={memorySink()} />)
      expect(screen.getByTestId('inspector').className).toContain('rtg-theme-dark')
      query.matches = false
      act(() => listeners.forEach((l) => l()))
      expect(screen.getByTestId('inspector').className).toContain('rtg-theme-light')
      cleanup()
      render(<Panel store={createPanelStore()} sink={memorySink()} theme="dark" />)
      expect(screen.getByTestId('inspector').className).toContain('rtg-theme-dark')
    } finally {
      vi.unstubAllGlobals()
    }
  })
})

describe('Config tab', () => {
  async function openConfig() {
    const ctx = mount()
    ingestAgent(ctx.store, 'a', 1)
    fireEvent.click(screen.getByTestId('tab-config'))
    return ctx
  }

  it('shows the config in force and the engine’s exact error for a bad value, saving nothing', async () => {
    const { sink } = await openConfig()
    expect(screen.getByTestId('config-in-force-thresholds').textContent).toBe('3, 5, 8')
    const input = screen.getByTestId('config-input') as HTMLTextAreaElement
    fireEvent.input(input, { target: { value: JSON.stringify({ thresholds: [3, 1] }) } })
    expect(screen.getByTestId('config-error').textContent).toBe(engineError({ thresholds: [3, 1] }))
    expect((screen.getByTestId('config-apply') as HTMLButtonElement).disabled).toBe(true)
    fireEvent.submit(screen.getByTestId('config-editor'))
    fireEvent.input(input, { target: { value: '{"threshold": [4]}' } })
    expect(screen.getByTestId('config-error').textContent).toBe(engineError({ threshold: [4] }))
    fireEvent.input(input, { target: { value: '{"thresholds": [4,' } })
    expect(screen.getByTestId('config-error').textContent).toMatch(/^Invalid JSON: /)
    expect(sink.saved).toEqual([])
  })

  it('saves a good value through the sink, normalised by the engine', async () => {
    const { sink } = await openConfig()
    fireEvent.input(screen.getByTestId('config-input'), { target: { value: JSON.stringify({ thresholds: [6, 2], exclude: ['todo_*'] }) } })
    fireEvent.click(screen.getByTestId('config-apply'))
    await waitFor(() => expect(screen.getByTestId('config-status').textContent).toBe('Saved.'))
    expect(sink.saved).toEqual([{ thresholds: [2, 6], include: [], exclude: ['todo_*'], argumentsPreviewChars: 500 }])
    expect(JSON.parse((screen.getByTestId('config-input') as HTMLTextAreaElement).value).thresholds).toEqual([2, 6])
  })

  it('fills keys left out from the recommended config, as the page does with a stored value', async () => {
    const { sink } = await openConfig()
    fireEvent.input(screen.getByTestId('config-input'), { target: { value: '{"thresholds": [4]}' } })
    fireEvent.click(screen.getByTestId('config-apply'))
    await waitFor(() => expect(screen.getByTestId('config-status').textContent).toBe('Saved.'))
    expect(sink.saved).toEqual([{ thresholds: [4], include: [], exclude: ['todo_write'], argumentsPreviewChars: 500 }])
    // what the content script makes of the same text, had it been stored as typed
    expect(readStoredConfig({ thresholds: [4] })).toEqual({ ok: true, config: sink.saved[0] })
  })

  it('reports a sink that fails to save', async () => {
    const sink = memorySink()
    sink.apply = vi.fn(async () => {
      throw new Error('quota exceeded')
    })
    mount(createPanelStore(), sink)
    fireEvent.click(screen.getByTestId('tab-config'))
    fireEvent.input(screen.getByTestId('config-input'), { target: { value: '{"thresholds":[4]}' } })
    fireEvent.click(screen.getByTestId('config-apply'))
    await waitFor(() => expect(screen.getByTestId('config-status').textContent).toBe('Not saved: quota exceeded'))
  })
})

describe('What-if tab', () => {
  it('replays the recorded calls with an edited config and lists the differences', async () => {
    const { store, sink } = mount()
    ingestAgent(store, 'a', 5)
    fireEvent.click(screen.getByTestId('tab-what-if'))
    const editor = screen.getByTestId('what-if-editor')
    fireEvent.input(within(editor).getByTestId('config-input'), { target: { value: JSON.stringify({ thresholds: [2, 4] }) } })
    fireEvent.click(within(editor).getByTestId('config-apply'))
    await screen.findByTestId('what-if-result')
    expect(screen.getByTestId('what-if-summary').textContent).toContain('Replayed 5 calls: 2 reminders fired, 2 reminders would fire with this config.')
    expect(screen.getAllByTestId('what-if-row').map((row) => row.getAttribute('data-change'))).toEqual(['added', 'removed', 'added', 'removed'])
    fireEvent.click(within(screen.getAllByTestId('what-if-row')[0]!).getByRole('button'))
    expect(screen.getByText('Would fire').nextElementSibling?.textContent).toMatch(/^You are repeating/)
    expect(sink.saved).toEqual([])
  })
})

describe('import', () => {
  it('imports an exported file from the toolbar, and reports a bad one without losing anything', async () => {
    const source = createPanelStore()
    ingestAgent(source, 'exported', 3)
    const { store } = mount()
    ingestAgent(store, 'live', 1)
    const input = screen.getByTestId('import-input') as HTMLInputElement

    const bad = new File(['{"format":"nope"}'], 'bad.json', { type: 'application/json' })
    change(input, { files: [bad] })
    await screen.findByTestId('import-errors')
    expect(screen.getByTestId('import-result').textContent).toContain('bad.json was not imported')
    expect(screen.getByTestId('agent-label').textContent).toBe('live')

    const good = new File([source.exportSession()], 'session.json', { type: 'application/json' })
    change(input, { files: [good] })
    await waitFor(() => expect(screen.getByTestId('agent-label').textContent).toBe('exported'))
    expect(store.exportSession()).toBe(source.exportSession())
    expect(screen.getByTestId('import-result').textContent).toContain('Imported session.json')
  })
})
