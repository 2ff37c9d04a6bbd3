// @vitest-environment happy-dom
// The timeline marks near-repeat, error-run and repeated-answer reminders with what set them off
// (docs/panel.md, "What triggered a reminder"), by mouse and by keyboard.
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/preact'
import { afterEach, describe, expect, it } from 'vitest'
import { RECOMMENDED_CONFIG, type GuardConfigInput } from '../../../../engine/index.ts'
import { Panel } from '../../../../extension/src/panel/components/panel.tsx'
import { createPanelStore, type PanelStore } from '../../../../extension/src/panel/store/panel-store.ts'
import type { PanelEvent } from '../../../../extension/src/protocol/events.ts'
import { checkPanelEvent } from '../../../../extension/src/protocol/validate.ts'
import { recordingPage, type RecordingPage } from './support/recorded-session.ts'
import { callEvent } from '../support/samples.ts'

afterEach(cleanup)

const sink = { current: () => RECOMMENDED_CONFIG, apply: async () => {} }

function recorded(config: GuardConfigInput, drive: (page: RecordingPage, agent: object) => void): PanelStore {
  const store = createPanelStore()
  const page = recordingPage({ ...RECOMMENDED_CONFIG, ...config })
  drive(page, { name: 'searcher' })
  store.ingest(page.batch())
  render(<Panel store={store} sink={sink} theme="light" />)
  return store
}

const SIMILAR = { similar: { threshold: 0.6, minCalls: 3 } }

function rephrase(page: RecordingPage, agent: object): void {
  for (const q of ['configure auth', 'configure the auth', 'configure auth now']) page.guard.observe({ agent, name: 'search', arguments: { q } })
}

/** A side of the diff as text, its marked parts in brackets. */
function marked(side: HTMLElement): string {
  return [...side.childNodes].map((node) => (node.nodeName === 'MARK' ? `[${node.textContent}]` : node.textContent)).join('')
}

const press = (element: Element, key: string) => fireEvent.keyDown(element, { key })

describe('a near-repeat reminder', () => {
  it('shows the previous call and the firing call side by side, their differences marked', () => {
    recorded(SIMILAR, rephrase)
    const trigger = screen.getByTestId('reminder-trigger')
    expect(trigger.dataset.trigger).toBe('similar')
    expect(screen.getByTestId('trigger-toggle').textContent).toBe('▸ Triggered by 3 calls of search in a row, each alike to the one before but not identical')
    expect(screen.queryByTestId('similar-diff')).toBeNull()
    fireEvent.click(screen.getByTestId('trigger-toggle'))
    const diff = screen.getByTestId('similar-diff')
    expect(within(diff).getByText('Previous call #2')).toBeTruthy()
    expect(within(diff).getByText('This call #3')).toBeTruthy()
    expect(marked(screen.getByTestId('diff-previous'))).toBe('{"q":"configure [the ]auth"}')
    expect(marked(screen.getByTestId('diff-firing'))).toBe('{"q":"configure auth[ now]"}')
  })

  it('compares with the call of the same tool before, past an untracked call of another tool', () => {
    recorded({ ...SIMILAR, exclude: ['todo_write'] }, (page, agent) => {
      page.guard.observe({ agent, name: 'search', arguments: { q: 'configure auth' } })
      page.guard.observe({ agent, name: 'search', arguments: { q: 'configure auth x' } })
      page.guard.observe({ agent, name: 'todo_write', arguments: { q: 'unrelated' } })
      page.guard.observe({ agent, name: 'search', arguments: { q: 'configure auth y' } })
    })
    fireEvent.click(screen.getByTestId('trigger-toggle'))
    expect(marked(screen.getByTestId('diff-previous'))).toBe('{"q":"configure auth [x]"}')
    expect(marked(screen.getByTestId('diff-firing'))).toBe('{"q":"configure auth [y]"}')
  })

  it('opens and closes with Enter on the row, as a call’s arguments do', () => {
    recorded(SIMILAR, rephrase)
    const list = screen.getByRole('listbox')
    press(list, 'End')
    const row = () => list.querySelector('[aria-selected="true"]')!
    expect(row().getAttribute('aria-expanded')).toBe('false')
    press(list, 'Enter')
    expect(row().getAttribute('aria-expanded')).toBe('true')
    expect(screen.getByTestId('similar-diff')).toBeTruthy()
    press(list, ' ')
    expect(screen.queryByTestId('similar-diff')).toBeNull()
  })

  it('says so when its calls are no longer held', () => {
    const store = createPanelStore({ maxEntries: 2 })
    const page = recordingPage({ ...RECOMMENDED_CONFIG, ...SIMILAR })
    rephrase(page, { name: 'searcher' })
    store.ingest(page.batch())
    render(<Panel store={store} sink={sink} theme="light" />)
    fireEvent.click(screen.getByTestId('trigger-toggle'))
    expect(screen.getByTestId('trigger-detail').textContent).toBe('The calls it compared are no longer in the panel.')
  })
})

describe('an error-run reminder', () => {
  it('shows the last error the tool returned', () => {
    recorded({ errorRuns: { after: 2 } }, (page, agent) => {
      page.guard.observe({ agent, name: 'fetch_page', arguments: { url: 'a' } }, { isError: true, content: [{ type: 'text', text: 'timeout' }] })
      page.guard.observe({ agent, name: 'fetch_page', arguments: { url: 'b' } }, { isError: true, content: [{ type: 'text', text: 'HTTP 503\nService Unavailable' }] })
    })
    expect(screen.getByTestId('reminder-trigger').dataset.trigger).toBe('error-run')
    expect(screen.getByTestId('trigger-toggle').textContent).toBe('▸ Triggered by fetch_page returning an error 2 times in a row')
    fireEvent.click(screen.getByTestId('trigger-toggle'))
    expect(screen.getByTestId('trigger-error').textContent).toBe('HTTP 503\nService Unavailable')
  })

  it('says why no error is shown: a text cut before it, or a sanitized session that kept none', () => {
    const shown = (text: string, textLength?: number) => {
      cleanup()
      const store = createPanelStore()
      const events: PanelEvent[] = [
        { type: 'agent', at: 1, agent: { id: 'hook:1', kind: 'hook', label: 'lead' } },
        callEvent({ at: 2, tool: 'fetch_page', isError: true }),
        { type: 'reminder', at: 3, agentId: 'hook:1', seq: 1, tool: 'fetch_page', count: 2, level: 'error-run', detector: 'error-run', text, ...(textLength === undefined ? {} : { textLength }) },
      ]
      for (const event of events) expect(checkPanelEvent(event).ok).toBe(true)
      act(() => store.ingest({ frameId: 0, url: 'http://x/', events }))
      render(<Panel store={store} sink={sink} theme="light" />)
      fireEvent.click(screen.getByTestId('trigger-toggle'))
      return screen.getByTestId('trigger-error-missing').textContent
    }
    expect(shown('[sanitized: 212 chars, hash 0123456789abcdef]')).toBe('Not in this session: a sanitized export keeps the reminder’s length and hash, not its text.')
    expect(shown('Repeated tool errors detected:\n- tool: fetch_page\n- consecutive_er', 212)).toBe('The reminder’s text was cut before the error.')
  })
})

describe('a repeated-answer reminder', () => {
  it('shows how many times the answer was given', () => {
    const store = createPanelStore()
    const events: PanelEvent[] = [
      { type: 'agent', at: 1, agent: { id: 'wire:1', kind: 'wire', label: 'chat', format: 'openai-chat', reach: 'fetch' } },
      callEvent({ at: 2, agentId: 'wire:1', tool: 'search', args: '{"q":"x"}' }),
      {
        type: 'reminder',
        at: 3,
        agentId: 'wire:1',
        seq: 1,
        tool: 'search',
        count: 3,
        level: 'repeated-text',
        detector: 'repeated-text',
        text: 'You have given the same answer 3 times in a row. If the task is complete, say so once and stop; otherwise take a different step.',
        wasteMs: 900,
        wasteTokens: 420,
        placement: 'messages[6]',
      },
    ]
    for (const event of events) expect(checkPanelEvent(event).ok).toBe(true)
    act(() => store.ingest({ frameId: 0, url: 'http://x/', events }))
    render(<Panel store={store} sink={sink} theme="light" />)
    expect(screen.getByTestId('trigger-toggle').textContent).toBe('▸ Triggered by the same answer 3 times in a row')
    fireEvent.click(screen.getByTestId('trigger-toggle'))
    expect(screen.getByTestId('trigger-answers').textContent).toMatch(/^The model gave the same answer, with no tool call, 3 times in a row\./)
  })
})

describe('other reminders', () => {
  it('carry no trigger mark, and Enter opens nothing on them', () => {
    recorded({}, (page, agent) => {
      for (let i = 0; i < 3; i++) page.guard.observe({ agent, name: 'grep', arguments: { q: 'x' } })
    })
    expect(screen.queryByTestId('reminder-trigger')).toBeNull()
    const list = screen.getByRole('listbox')
    press(list, 'End')
    expect(list.querySelector('[aria-selected="true"]')!.hasAttribute('aria-expanded')).toBe(false)
  })
})
