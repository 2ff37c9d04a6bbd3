// @vitest-environment happy-dom
// Zero-code mode's setting in the panel: shown for the inspected page's origin, switched in one
// click and saved to extension storage; and the rows of requests it only observed.
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/preact'
import { afterEach, describe, expect, it } from 'vitest'
import { RECOMMENDED_CONFIG } from '../../../../engine/index.ts'
import { Panel } from '../../../../extension/src/panel/components/panel.tsx'
import type { ZeroCodeSink } from '../../../../extension/src/ui/zero-code-sink.ts'
import { createStorageZeroCodeSink } from '../../../../extension/src/ui/storage-zero-code-sink.ts'
import { createPanelStore } from '../../../../extension/src/panel/store/panel-store.ts'
import type { PanelEvent } from '../../../../extension/src/protocol/events.ts'
import { ZERO_CODE_STORAGE_KEY } from '../../../../extension/src/protocol/zero-code-mode.ts'
import { fakeStorage } from './support/fake-storage.ts'

afterEach(cleanup)

const configSink = { current: () => RECOMMENDED_CONFIG, apply: async () => {} }

/** The panel of a page at `url`, whose frame the browser named of `origin` (the batch's tag; null: none named). */
function mount(url: string, zeroCode?: ZeroCodeSink, events: PanelEvent[] = [], origin: string | null = new URL(url).origin) {
  const store = createPanelStore()
  const loaded: PanelEvent[] = [{ type: 'page-load', at: 1, url }, ...events]
  store.ingest(origin === null ? { frameId: 0, url, events: loaded } : { frameId: 0, url, origin, events: loaded })
  render(<Panel store={store} sink={configSink} theme="light" {...(zeroCode ? { zeroCode } : {})} />)
  return store
}

describe('the storage sink', () => {
  it('reads the setting of an origin, its default when none was chosen, and follows changes', async () => {
    const storage = fakeStorage({ [ZERO_CODE_STORAGE_KEY]: { 'https://app.example': 'off', 'https://bad.example': 'sometimes' } })
    const sink = await createStorageZeroCodeSink(storage)
    expect(sink.setting('https://app.example')).toEqual({ mode: 'off', chosen: true })
    expect(sink.setting('https://bad.example')).toEqual({ mode: 'observe', chosen: false })
    expect(sink.setting('http://localhost:5173')).toEqual({ mode: 'guard', chosen: false })
    expect(sink.setting(undefined)).toEqual({ mode: 'observe', chosen: false })
    let heard = 0
    sink.subscribe(() => heard++)
    storage.external(ZERO_CODE_STORAGE_KEY, { 'https://app.example': 'guard' })
    storage.external(ZERO_CODE_STORAGE_KEY, {}, 'sync')
    expect(sink.setting('https://app.example').mode).toBe('guard')
    expect(heard).toBe(1)
  })

  it('saves a choice beside every other stored entry, unreadable ones included', async () => {
    const storage = fakeStorage({ [ZERO_CODE_STORAGE_KEY]: { 'https://a.example': 'off', 'https://b.example': 'later' } })
    const sink = await createStorageZeroCodeSink(storage)
    await sink.choose('https://c.example', 'guard')
    expect(storage.items[ZERO_CODE_STORAGE_KEY]).toEqual({ 'https://a.example': 'off', 'https://b.example': 'later', 'https://c.example': 'guard' })
    expect(sink.setting('https://c.example')).toEqual({ mode: 'guard', chosen: true })
    const broken = fakeStorage({ [ZERO_CODE_STORAGE_KEY]: 'junk' })
    await (await createStorageZeroCodeSink(broken)).choose('https://c.example', 'off')
    expect(broken.items[ZERO_CODE_STORAGE_KEY]).toEqual({ 'https://c.example': 'off' })
  })
})

describe('the switch in the status bar', () => {
  it("shows the inspected page's origin and its setting, and switches it in one click", async () => {
    const storage = fakeStorage()
    mount('https://app.example/chat?key=1', await createStorageZeroCodeSink(storage))
    expect(screen.getByTestId('zero-code').textContent).toContain('Zero-code: observe · app.example')
    expect(screen.getByTestId('zero-code-observe').getAttribute('aria-pressed')).toBe('true')
    fireEvent.click(screen.getByTestId('zero-code-guard'))
    await waitFor(() => expect(screen.getByTestId('zero-code-mode').textContent).toBe('guard'))
    expect(storage.items[ZERO_CODE_STORAGE_KEY]).toEqual({ 'https://app.example': 'guard' })
    expect(screen.getByTestId('zero-code-guard').getAttribute('aria-pressed')).toBe('true')
    // Changed elsewhere (another panel): shown at once.
    await act(async () => storage.external(ZERO_CODE_STORAGE_KEY, { 'https://app.example': 'off' }))
    expect(screen.getByTestId('zero-code-mode').textContent).toBe('off')
  })

  it('a local page shows guard, its default', async () => {
    mount('http://localhost:5173/', await createStorageZeroCodeSink(fakeStorage()))
    expect(screen.getByTestId('zero-code').textContent).toContain('Zero-code: guard · localhost:5173')
  })

  it('says so when saving failed', async () => {
    const sink: ZeroCodeSink = { setting: () => ({ mode: 'observe', chosen: false }), choose: () => Promise.reject(new Error('quota')), subscribe: () => () => {} }
    mount('https://app.example/', sink)
    fireEvent.click(screen.getByTestId('zero-code-off'))
    await waitFor(() => expect(screen.getByRole('alert').textContent).toContain('quota'))
  })

  it('is absent without a sink (the playground) and while no browser named the page its origin', async () => {
    mount('https://app.example/')
    expect(screen.queryByTestId('zero-code')).toBeNull()
    cleanup()
    mount('https://app.example/', await createStorageZeroCodeSink(fakeStorage()), [], null)
    expect(screen.queryByTestId('zero-code')).toBeNull()
  })

  it("switches the origin of the batch's tag, never the one the page's load event names", async () => {
    const storage = fakeStorage()
    const forged: PanelEvent = { type: 'page-load', at: 2, url: 'https://bank.example/accounts' }
    mount('http://127.0.0.1:8080/agent.html', await createStorageZeroCodeSink(storage), [forged], 'http://127.0.0.1:8080')
    expect(screen.getByTestId('zero-code').textContent).toContain('Zero-code: guard · 127.0.0.1:8080')
    expect(screen.getByTestId('status-bar').textContent).not.toContain('bank.example')
    fireEvent.click(screen.getByTestId('zero-code-observe'))
    await waitFor(() => expect(screen.getByTestId('zero-code-mode').textContent).toBe('observe'))
    expect(storage.items[ZERO_CODE_STORAGE_KEY]).toEqual({ 'http://127.0.0.1:8080': 'observe' })
  })

  it('shows a sandboxed page on observe, which it always runs, and cannot switch it', async () => {
    const storage = fakeStorage({ [ZERO_CODE_STORAGE_KEY]: { 'http://127.0.0.1:8080': 'guard' } })
    mount('http://127.0.0.1:8080/sandboxed', await createStorageZeroCodeSink(storage), [], 'null')
    expect(screen.getByTestId('zero-code').textContent).toContain('Zero-code: observe · sandboxed')
    expect(screen.getByTestId('zero-code-reason').textContent).toBe('This page is sandboxed (opaque origin): it always runs observe.')
    expect(['guard', 'observe', 'off'].map((mode) => (screen.getByTestId(`zero-code-${mode}`) as HTMLButtonElement).disabled)).toEqual([true, true, true])
  })
})

describe('rows of what zero-code mode only observed', () => {
  const agent: PanelEvent = { type: 'agent', at: 1, agent: { id: 'wire:1', kind: 'wire', label: 'planner', format: 'openai-chat' } }
  const reminder = { type: 'reminder', at: 2, agentId: 'wire:1', seq: 3, tool: 'search', count: 3, level: 'gentle', text: 'You are repeating', placement: 'messages[7]' } as const
  const request = { type: 'request', at: 2, agentId: 'wire:1', url: 'https://api.example/v1/chat/completions', format: 'openai-chat', calls: 3, remindersInserted: 1, rewritten: false } as const

  it('observe: the reminder would be inserted, the request was observed, not rewritten', () => {
    mount('https://app.example/', undefined, [agent, { ...request, withheld: 'observe' }, { ...reminder, withheld: 'observe' }, { ...request, at: 3, remindersInserted: 0, withheld: 'observe' }])
    expect(screen.getByText('would insert', { exact: false }).textContent).toBe('would insert at messages[7]')
    expect(screen.getAllByTestId('request-outcome').map((e) => e.textContent)).toEqual(['3 calls · observed, not rewritten (1 reminder would be inserted)', '3 calls · observed, not rewritten'])
  })

  it('keep-alive: says the limit is why', () => {
    mount('https://app.example/', undefined, [agent, { ...request, withheld: 'keepalive-limit' }, { ...reminder, withheld: 'keepalive-limit' }])
    expect(screen.getByTestId('request-outcome').textContent).toBe('3 calls · not rewritten: 1 reminder would pass the 64 KB keep-alive limit')
    expect(screen.getByText('would insert', { exact: false }).getAttribute('title')).toContain('keep-alive bodies over 64 KB')
  })

  it('guard: inserted, as before', () => {
    mount('https://app.example/', undefined, [agent, { ...request, rewritten: true }, reminder])
    expect(screen.getByText('inserted at', { exact: false }).textContent).toBe('inserted at messages[7]')
    expect(screen.getByTestId('request-outcome').textContent).toBe('3 calls · 1 reminder inserted · body rewritten')
  })
})
