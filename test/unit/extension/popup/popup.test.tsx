// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from '@testing-library/preact'
import { afterEach, describe, expect, it } from 'vitest'
import type { ZeroCodeSink } from '../../../../extension/src/ui/zero-code-sink.ts'
import { Popup } from '../../../../extension/src/popup/popup.tsx'
import type { ZeroCodeMode } from '../../../../extension/src/protocol/zero-code-mode.ts'
import { EMPTY_SUMMARY } from '../../../../extension/src/background/tab-summary.ts'

afterEach(cleanup)

function memoryZeroCode(): ZeroCodeSink & { chosen: [string, ZeroCodeMode][] } {
  const chosen: [string, ZeroCodeMode][] = []
  const listeners = new Set<() => void>()
  return {
    chosen,
    setting: () => ({ mode: chosen.at(-1)?.[1] ?? 'observe', chosen: chosen.length > 0 }),
    choose: async (origin, mode) => {
      chosen.push([origin, mode])
      listeners.forEach((l) => l())
    },
    subscribe: (l) => (listeners.add(l), () => void listeners.delete(l)),
  }
}

describe('the toolbar popup', () => {
  it('says so when no agent was seen, and offers no switch before the page is known', () => {
    render(<Popup state={{ kind: 'ready', tabId: 4, summary: EMPTY_SUMMARY }} zeroCode={memoryZeroCode()} />)
    expect(screen.getByTestId('popup-agents').textContent).toBe('No agent seen on this page yet.')
    expect(screen.getByTestId('popup-reminders').textContent).toBe('0 reminders fired')
    expect(screen.queryByTestId('zero-code')).toBeNull()
    expect(screen.getByTestId('popup-panel-link').getAttribute('href')).toBe('panel.html?tabId=4')
  })

  it("lists the agents, the reminders fired and observed, and switches the page origin's setting", () => {
    const zeroCode = memoryZeroCode()
    const summary = {
      pageUrl: 'https://app.example/chat?x=1',
      pageOrigin: 'https://app.example',
      agents: [{ id: 'wire:1', label: 'You are a helpful', kind: 'wire' as const }],
      reminders: 1,
      observed: 2,
    }
    render(<Popup state={{ kind: 'ready', tabId: 4, summary }} zeroCode={zeroCode} />)
    expect(screen.getByTestId('popup-agents').textContent).toBe('1 agent seen')
    expect(screen.getByRole('list').textContent).toBe('You are a helpful wire')
    expect(screen.getByTestId('popup-reminders').textContent).toBe('1 reminder fired, 2 reminders only observed (not sent)')
    expect(screen.getByTestId('zero-code-mode').textContent).toBe('observe')
    fireEvent.click(screen.getByTestId('zero-code-guard'))
    expect(zeroCode.chosen).toEqual([['https://app.example', 'guard']])
  })

  it('names the reach of agents whose loop runs on a server, ui-stream or ag-ui, in place of their kind', () => {
    const agents = [
      { id: 'wire:1', label: 'chat-1', kind: 'wire' as const, reach: 'ui-stream' as const },
      { id: 'wire:2', label: 'thread-1', kind: 'wire' as const, reach: 'ag-ui' as const },
    ]
    render(<Popup state={{ kind: 'ready', tabId: 4, summary: { ...EMPTY_SUMMARY, agents } }} zeroCode={memoryZeroCode()} />)
    expect(screen.getAllByRole('listitem').map((item) => item.textContent)).toEqual(['chat-1 ui-stream', 'thread-1 ag-ui'])
  })

  it("switches the origin the browser named for the page, not the one in the page's address", () => {
    const zeroCode = memoryZeroCode()
    const summary = { ...EMPTY_SUMMARY, pageUrl: 'https://bank.example/accounts', pageOrigin: 'http://127.0.0.1:8080' }
    render(<Popup state={{ kind: 'ready', tabId: 4, summary }} zeroCode={zeroCode} />)
    expect(screen.getByTestId('zero-code').textContent).toContain('Zero-code: observe · 127.0.0.1:8080')
    fireEvent.click(screen.getByTestId('zero-code-off'))
    expect(zeroCode.chosen).toEqual([['http://127.0.0.1:8080', 'off']])
  })

  it('shows a sandboxed page on observe, which it always runs, with the switch disabled and the reason', () => {
    const zeroCode = memoryZeroCode()
    // A stored `guard` for the page's host does not apply to its opaque origin.
    void zeroCode.choose('http://127.0.0.1:8080', 'guard')
    const summary = { ...EMPTY_SUMMARY, pageUrl: 'http://127.0.0.1:8080/sandboxed', pageOrigin: 'null' }
    render(<Popup state={{ kind: 'ready', tabId: 4, summary }} zeroCode={zeroCode} />)
    expect(screen.getByTestId('zero-code-mode').textContent).toBe('observe')
    expect(screen.getByTestId('zero-code-reason').textContent).toBe('This page is sandboxed (opaque origin): it always runs observe.')
    const buttons = ['guard', 'observe', 'off'].map((mode) => screen.getByTestId(`zero-code-${mode}`) as HTMLButtonElement)
    expect(buttons.map((b) => [b.disabled, b.getAttribute('aria-pressed')])).toEqual([
      [true, 'false'],
      [true, 'true'],
      [true, 'false'],
    ])
    fireEvent.click(buttons[2]!)
    expect(zeroCode.chosen).toEqual([['http://127.0.0.1:8080', 'guard']])
  })

  it('counts the Node processes behind the page apart from its own agents, gone ones and cut histories said so', () => {
    const server = { port: 8730, label: 'server · pid 7 · node 20 · app.js', agents: 2, reminders: 1, observed: 0, truncated: false, gone: false }
    const servers = [server, { ...server, port: 8740, label: 'server · pid 9 · node 22', agents: 1, reminders: 3, observed: 2, truncated: true, gone: true }]
    render(<Popup state={{ kind: 'ready', tabId: 4, summary: EMPTY_SUMMARY }} zeroCode={memoryZeroCode()} servers={servers} />)
    expect(screen.getByTestId('popup-agents').textContent).toBe('No agent seen on this page yet.')
    expect(screen.getByTestId('popup-server-agents').textContent).toBe('3 server agents in 2 Node processes')
    expect(screen.getAllByTestId('popup-server').map((item) => item.textContent)).toEqual([
      'server · pid 7 · node 20 · app.js: 2 agents, 1 reminder fired',
      'server · pid 9 · node 22 · gone: 1 agent, at least 3 reminders fired, 2 reminders only observed',
    ])
  })

  it('shows no server count when no process answered', () => {
    render(<Popup state={{ kind: 'ready', tabId: 4, summary: EMPTY_SUMMARY }} zeroCode={memoryZeroCode()} servers={[]} />)
    expect(screen.queryByTestId('popup-server-agents')).toBeNull()
  })

  it('tells why it has nothing to show', () => {
    render(<Popup state={{ kind: 'failed', reason: 'No tab to describe.' }} zeroCode={memoryZeroCode()} />)
    expect(screen.getByRole('alert').textContent).toBe('No tab to describe.')
  })
})
