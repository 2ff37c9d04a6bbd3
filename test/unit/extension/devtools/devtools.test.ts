// The devtools page: one panel per DevTools window, pointed at the tab that window inspects.
import { existsSync } from 'node:fs'
import { resolve } from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'

const EXTENSION = resolve(import.meta.dirname, '../../../../extension')

/** Runs the devtools page in a DevTools window inspecting `tabId`; returns the panels it created. */
async function openDevtools(tabId: number): Promise<unknown[][]> {
  const create = vi.fn()
  vi.stubGlobal('chrome', { devtools: { panels: { create }, inspectedWindow: { tabId } } })
  // Each DevTools window loads the page afresh.
  vi.resetModules()
  await import('../../../../extension/src/devtools/index.ts')
  return create.mock.calls
}

afterEach(() => vi.unstubAllGlobals())

describe('the devtools page', () => {
  it('adds one Repeat Tool Guard panel for the inspected tab', async () => {
    expect(await openDevtools(42)).toEqual([['Repeat Tool Guard', 'icons/icon-32.png', 'panel.html?tabId=42']])
    expect(await openDevtools(7)).toEqual([['Repeat Tool Guard', 'icons/icon-32.png', 'panel.html?tabId=7']])
  })

  it('names an icon and a page the built extension has at its root, next to devtools.html', async () => {
    const [[, icon, page]] = (await openDevtools(1)) as [[string, string, string]]
    // public/ is copied to the root of the build; panel.html is built from the extension folder.
    expect(existsSync(resolve(EXTENSION, 'public', icon))).toBe(true)
    expect(existsSync(resolve(EXTENSION, page.split('?')[0]!))).toBe(true)
    expect(existsSync(resolve(EXTENSION, 'devtools.html'))).toBe(true)
  })
})
