// @vitest-environment happy-dom
// The toolbar's Export: a split button like DevTools' own. The button writes the sanitized file;
// its arrow opens both choices, and the keyboard alone reaches and works them.
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/preact'
import { afterEach, describe, expect, it, onTestFinished } from 'vitest'
import { RECOMMENDED_CONFIG } from '../../../../engine/index.ts'
import { Panel } from '../../../../extension/src/panel/components/panel.tsx'
import { createPanelStore, type PanelStore } from '../../../../extension/src/panel/store/panel-store.ts'
import { recordingPage, repeat } from './support/recorded-session.ts'

afterEach(cleanup)

const SECRET = 'hunter2-for-the-export-menu'
const sink = { current: () => RECOMMENDED_CONFIG, apply: async () => {} }

interface Download {
  readonly name: string
  readonly text: Promise<string>
}

/** The files the panel hands the browser to download. */
function downloads(): Download[] {
  const saved: Download[] = []
  const blobs = new Map<string, Blob>()
  const { createObjectURL, revokeObjectURL } = URL
  const { click } = HTMLAnchorElement.prototype
  URL.createObjectURL = (blob: Blob) => {
    const url = `blob:test/${blobs.size}`
    blobs.set(url, blob)
    return url
  }
  URL.revokeObjectURL = () => {}
  HTMLAnchorElement.prototype.click = function (this: HTMLAnchorElement) {
    saved.push({ name: this.download, text: blobs.get(this.href)!.text() })
  }
  onTestFinished(() => {
    Object.assign(URL, { createObjectURL, revokeObjectURL })
    HTMLAnchorElement.prototype.click = click
  })
  return saved
}

function mounted(): PanelStore {
  const store = createPanelStore()
  const page = recordingPage()
  repeat(page, { name: 'lead' }, 'login', { password: SECRET }, 3)
  store.ingest(page.batch())
  render(<Panel store={store} sink={sink} theme="light" />)
  return store
}

const arrow = () => screen.getByTestId('export-menu')
const items = () => screen.getAllByRole('menuitem')
const press = (element: Element, key: string) => fireEvent.keyDown(element, { key })

describe('Export', () => {
  it('writes the sanitized file from the button itself, and the file with arguments from the menu', async () => {
    const saved = downloads()
    const store = mounted()
    fireEvent.click(screen.getByTestId('export'))
    expect(saved).toHaveLength(1)
    expect(saved[0]!.name).toMatch(/^repeat-tool-guard-session-\d{8}-\d{6}\.json$/)
    const sanitized = await saved[0]!.text
    expect(sanitized.includes(SECRET)).toBe(false)
    expect(JSON.parse(sanitized)).toMatchObject({ sanitized: true })

    fireEvent.click(arrow())
    fireEvent.click(screen.getByTestId('export-with-arguments'))
    expect(saved).toHaveLength(2)
    expect(saved[1]!.name).toMatch(/^repeat-tool-guard-session-\d{8}-\d{6}-with-arguments\.json$/)
    expect(await saved[1]!.text).toBe(store.exportSession('with-arguments'))
    expect(screen.queryByRole('menu')).toBeNull()

    fireEvent.click(arrow())
    fireEvent.click(screen.getByTestId('export-sanitized'))
    expect(JSON.parse(await saved[2]!.text)).toMatchObject({ sanitized: true })
  })

  it('opens from the keyboard on its arrow, moves with ↑/↓/Home/End, and closes with Escape back on the arrow', async () => {
    mounted()
    expect(arrow().getAttribute('aria-haspopup')).toBe('menu')
    expect(arrow().getAttribute('aria-expanded')).toBe('false')
    act(() => arrow().focus())
    press(arrow(), 'ArrowDown')
    await waitFor(() => expect(document.activeElement).toBe(items()[0]))
    expect(arrow().getAttribute('aria-expanded')).toBe('true')
    expect(items().map((item) => item.textContent)).toEqual(['Export (sanitized)', 'Export with arguments'])
    const menu = screen.getByRole('menu')
    press(menu, 'ArrowDown')
    expect(document.activeElement).toBe(items()[1])
    press(menu, 'ArrowDown')
    expect(document.activeElement).toBe(items()[0])
    press(menu, 'ArrowUp')
    expect(document.activeElement).toBe(items()[1])
    press(menu, 'Home')
    expect(document.activeElement).toBe(items()[0])
    press(menu, 'End')
    expect(document.activeElement).toBe(items()[1])
    press(menu, 'Escape')
    expect(screen.queryByRole('menu')).toBeNull()
    expect(document.activeElement).toBe(arrow())

    // ↑ opens on the last choice; Tab leaves the menu closed.
    press(arrow(), 'ArrowUp')
    await waitFor(() => expect(document.activeElement).toBe(items()[1]))
    press(screen.getByRole('menu'), 'Tab')
    expect(screen.queryByRole('menu')).toBeNull()
  })

  it('closes when the focus goes elsewhere', async () => {
    mounted()
    press(arrow(), 'Enter')
    await waitFor(() => expect(document.activeElement).toBe(items()[0]))
    fireEvent.focusOut(items()[0]!, { relatedTarget: screen.getByTestId('filter-text') })
    expect(screen.queryByRole('menu')).toBeNull()
  })
})
