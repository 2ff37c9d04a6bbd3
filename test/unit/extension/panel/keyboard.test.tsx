// @vitest-environment happy-dom
// The panel with the keyboard alone, as in DevTools' own panels, and what a screen reader reads.
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/preact'
import { afterEach, describe, expect, it, onTestFinished } from 'vitest'
import { RECOMMENDED_CONFIG } from '../../../../engine/index.ts'
import { Panel } from '../../../../extension/src/panel/components/panel.tsx'
import { movedTo } from '../../../../extension/src/panel/components/list-keys.ts'
import { createPanelStore, type PanelStore } from '../../../../extension/src/panel/store/panel-store.ts'
import { recordingPage, repeat } from './support/recorded-session.ts'

afterEach(cleanup)

function geometry(sizes: { clientHeight: number; scrollHeight: (el: HTMLElement) => number }): () => void {
  const proto = HTMLElement.prototype
  const saved = ['clientHeight', 'scrollHeight'].map((key) => [key, Object.getOwnPropertyDescriptor(proto, key)] as const)
  Object.defineProperty(proto, 'clientHeight', { configurable: true, get: () => sizes.clientHeight })
  Object.defineProperty(proto, 'scrollHeight', {
    configurable: true,
    get(this: HTMLElement) {
      return sizes.scrollHeight(this)
    },
  })
  return () => {
    for (const [key, descriptor] of saved) {
      if (descriptor) Object.defineProperty(proto, key, descriptor)
      else delete (proto as unknown as Record<string, unknown>)[key]
    }
  }
}

const sink = { current: () => RECOMMENDED_CONFIG, apply: async () => {} }

function mount(store: PanelStore) {
  render(<Panel store={store} sink={sink} theme="light" />)
}

/** A lead with one subagent, and a second top-level agent. */
function threeAgents(store: PanelStore) {
  const page = recordingPage()
  const lead = { name: 'lead' }
  repeat(page, lead, 'grep', { q: 'x' }, 3)
  repeat(page, { name: 'sub', parent: lead }, 'read_file', { path: 'a' }, 1)
  repeat(page, { name: 'other' }, 'list_dir', '.', 2)
  act(() => store.ingest(page.batch()))
}

const press = (element: Element, key: string, init: KeyboardEventInit = {}) => fireEvent.keyDown(element, { key, ...init })
const tree = () => screen.getByRole('tree')
const active = (list: HTMLElement) => document.getElementById(list.getAttribute('aria-activedescendant') ?? '')
const treeItems = () => screen.getAllByRole('treeitem').map((item) => item.getAttribute('aria-label'))

describe('the agent tree', () => {
  it('moves the selection with ↑/↓ and folds subagents with ←/→, announcing each agent and its run', () => {
    const store = createPanelStore()
    threeAgents(store)
    mount(store)
    expect(tree().getAttribute('tabindex')).toBe('0')
    expect(active(tree())?.getAttribute('aria-label')).toBe('All agents, 6 calls')
    expect(treeItems()).toEqual([
      'All agents, 6 calls',
      'lead, hook, run: grep {"q":"x"} × 3, next reminder at 5, 3 calls',
      'sub, hook, run: read_file {"path":"a"} × 1, next reminder at 3, 1 call',
      'other, hook, run: list_dir . × 2, next reminder at 3, 2 calls',
    ])
    const levels = screen.getAllByRole('treeitem').map((item) => item.getAttribute('aria-level'))
    expect(levels).toEqual(['1', '1', '2', '1'])

    press(tree(), 'ArrowDown')
    expect(active(tree())?.getAttribute('aria-label')).toMatch(/^lead,/)
    expect(active(tree())?.getAttribute('aria-selected')).toBe('true')
    expect(active(tree())?.getAttribute('aria-expanded')).toBe('true')
    // ← folds the lead: its subagent goes, the selection stays
    press(tree(), 'ArrowLeft')
    expect(treeItems()).toHaveLength(3)
    expect(active(tree())?.getAttribute('aria-expanded')).toBe('false')
    press(tree(), 'ArrowDown')
    expect(active(tree())?.getAttribute('aria-label')).toMatch(/^other,/)
    press(tree(), 'ArrowUp')
    // → unfolds, a second → steps onto the subagent, ← goes back up to its parent
    press(tree(), 'ArrowRight')
    expect(treeItems()).toHaveLength(4)
    press(tree(), 'ArrowRight')
    expect(active(tree())?.getAttribute('aria-label')).toMatch(/^sub,/)
    press(tree(), 'ArrowLeft')
    expect(active(tree())?.getAttribute('aria-label')).toMatch(/^lead,/)
    press(tree(), 'Home')
    expect(active(tree())?.getAttribute('aria-label')).toMatch(/^All agents/)
    press(tree(), 'End')
    expect(active(tree())?.getAttribute('aria-label')).toMatch(/^other,/)
    // the timeline follows the selection
    expect(screen.getAllByTestId('call-tool').map((el) => el.textContent)).toEqual(['list_dir', 'list_dir'])
  })
})

describe('the timeline', () => {
  it('moves with ↑/↓ over rows that read as sentences, and Enter opens a call', () => {
    const store = createPanelStore()
    const page = recordingPage()
    repeat(page, { name: 'lead' }, 'grep', { q: 'x' }, 3)
    act(() => store.ingest(page.batch()))
    mount(store)
    const list = screen.getByRole('listbox')
    expect(list.getAttribute('tabindex')).toBe('0')
    const labels = within(list)
      .getAllByRole('option')
      .map((option) => option.getAttribute('aria-label'))
    expect(labels[0]).toBe('lead: call 1, grep {"q":"x"}, run of 1, next reminder at 3')
    expect(labels.at(-1)).toMatch(/^lead: gentle reminder, grep × 3: You are repeating the exact same tool call/)

    press(list, 'ArrowDown')
    expect(active(list)?.getAttribute('aria-label')).toBe(labels[0])
    expect(active(list)?.getAttribute('aria-expanded')).toBe('false')
    press(list, 'Enter')
    expect(active(list)?.getAttribute('aria-expanded')).toBe('true')
    expect(screen.getByTestId('call-args').textContent).toBe('{"q":"x"}')
    press(list, 'Enter')
    expect(screen.queryByTestId('call-args')).toBeNull()
    press(list, 'End')
    expect(active(list)?.getAttribute('aria-label')).toBe(labels.at(-1))
    // Enter on a reminder opens nothing: its text is always shown
    press(list, 'Enter')
    expect(screen.queryByTestId('call-args')).toBeNull()
  })

  it('draws the row ↑ moves to, far above the rows drawn at the live end', () => {
    // happy-dom lays nothing out: give the list the geometry a browser would, 600 px in view.
    const restore = geometry({ clientHeight: 600, scrollHeight: (el) => parseFloat((el.firstElementChild as HTMLElement | null)?.style.height ?? '') || 0 })
    onTestFinished(restore)
    const store = createPanelStore()
    const page = recordingPage({ thresholds: [1_000_000] })
    const agent = { name: 'busy' }
    for (let i = 0; i < 2_000; i++) page.guard.observe({ agent, name: 'poll', arguments: i })
    act(() => store.ingest(page.batch()))
    mount(store)
    const list = screen.getByRole('listbox')
    expect(screen.queryByText('#1')).toBeNull()
    press(list, 'Home')
    expect(active(list)?.getAttribute('aria-label')).toBe('busy: call 1, poll 0, run of 1, next reminder at 1000000')
    expect(screen.getAllByTestId('timeline-row').length).toBeLessThan(100)
    press(list, 'End')
    expect(active(list)?.getAttribute('aria-label')).toMatch(/^busy: call 2000,/)
  })
})

describe('tabs and the filter', () => {
  it('go from tab to tab with ←/→, one tab stop, and Ctrl+F focuses the filter', () => {
    const store = createPanelStore()
    threeAgents(store)
    mount(store)
    const tabs = () => screen.getAllByRole('tab')
    expect(tabs().map((tab) => tab.getAttribute('tabindex'))).toEqual(['0', '-1', '-1'])
    press(tabs()[0]!, 'ArrowRight')
    expect(tabs()[1]!.getAttribute('aria-selected')).toBe('true')
    expect(document.activeElement).toBe(tabs()[1])
    expect(screen.getByRole('tabpanel').getAttribute('aria-labelledby')).toBe(tabs()[1]!.id)
    press(tabs()[1]!, 'ArrowRight')
    press(tabs()[2]!, 'ArrowRight')
    expect(tabs()[2]!.getAttribute('aria-selected')).toBe('true')
    press(tabs()[2]!, 'Home')
    expect(tabs()[0]!.getAttribute('aria-selected')).toBe('true')
    press(tabs()[0]!, 'ArrowLeft')
    expect(tabs()[0]!.getAttribute('aria-selected')).toBe('true')

    press(tree(), 'f', { ctrlKey: true })
    expect(document.activeElement).toBe(screen.getByTestId('filter-text'))
  })

  it('move as DevTools lists do', () => {
    expect([movedTo('ArrowDown', undefined, 0, 9), movedTo('ArrowUp', undefined, 0, 9), movedTo('PageDown', 5, 0, 9), movedTo('PageUp', undefined, 0, 30)]).toEqual([0, 9, 9, 20])
    expect([movedTo('ArrowDown', 9, 0, 9), movedTo('ArrowUp', 0, 0, 9), movedTo('a', 3, 0, 9), movedTo('End', 3, 0, -1)]).toEqual([9, 0, undefined, undefined])
  })
})
