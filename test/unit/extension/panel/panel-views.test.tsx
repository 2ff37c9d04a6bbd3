// @vitest-environment happy-dom
// The whole panel, mounted: agents, runs, reminders and the timeline, and the toolbar's controls.
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/preact'
import { afterEach, describe, expect, it } from 'vitest'
import { RECOMMENDED_CONFIG } from '../../../../engine/index.ts'
import { createPanelStore } from '../../../../extension/src/panel/store/panel-store.ts'
import { PAGE_URL, recordingPage, repeat } from './support/recorded-session.ts'
import { change, mount, ingestAgent } from './support/panel-mount.tsx'

afterEach(cleanup)

describe('Panel', () => {
  it('says what to do while no agent has been seen, above the page’s own rows, until one is', async () => {
    const { store } = mount()
    expect(screen.getByTestId('no-agent-yet').textContent).toContain('No agent seen on this page yet.')
    // What every page sends first, agent or not: its load (a timeline row) and its config.
    act(() =>
      store.ingest({
        frameId: 0,
        url: PAGE_URL,
        events: [
          { type: 'page-load', at: 1, url: PAGE_URL },
          { type: 'config', at: 1, config: RECOMMENDED_CONFIG },
        ],
      }),
    )
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
