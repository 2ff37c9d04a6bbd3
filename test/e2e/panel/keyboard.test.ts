// The panel with the keyboard alone, as a new user tries it: Tab into the agents, arrows to move
// and fold, ←/→ across the tabs, Ctrl+F to the filter, and a call opened from the timeline.
import type { Page } from 'playwright-core'
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { FIXTURES_DIR, repeat, runAgent, type AgentWindow } from '../extension/fixture.ts'
import { devToolsFor } from '../support/devtools.ts'
import { launch } from '../support/browser.ts'
import { useStage } from '../support/stage.ts'

const stage = useStage({ folder: FIXTURES_DIR })
/** The tab the panels inspect: its agents ran once, before the tests. */
let tabId: number
let panel: Page

const LONG_PATH = `src/${'deep/'.repeat(60)}file.ts`

beforeAll(async () => {
  const tab = await stage.open('agent.html')
  tabId = tab.tabId
  await runAgent(tab.page, 'lead', repeat(2, ['read_file', { path: LONG_PATH }]))
  await tab.page.evaluate(() => void (window as unknown as AgentWindow).agentHarness.agent('sub', 'lead'))
  await runAgent(tab.page, 'sub', [['grep', { q: 'x' }]])
  await runAgent(tab.page, 'other', [['list_dir', { path: '.' }]])
})

// Every test starts from a panel of its own, just opened: nothing focused, selected or filtered.
beforeEach(async () => {
  panel = await stage.browser.openPanel(tabId)
  await panel.getByRole('treeitem').nth(3).waitFor()
})

afterEach(() => panel.close())

/** The role and accessible name of what has the focus, and of its active descendant. */
const focus = () =>
  panel.evaluate(() => {
    const el = document.activeElement
    const activeId = el?.getAttribute('aria-activedescendant')
    const active = activeId ? document.getElementById(activeId) : null
    return { role: el?.getAttribute('role') ?? el?.tagName.toLowerCase(), label: el?.getAttribute('aria-label') ?? el?.textContent, active: active?.getAttribute('aria-label') }
  })

/** Presses Tab until the focus is on an element with `role` (bounded: the panel has a few dozen stops). */
async function tabTo(role: string): Promise<void> {
  for (let i = 0; i < 40; i++) {
    if ((await focus()).role === role) return
    await panel.keyboard.press('Tab')
  }
  throw new Error(`Tab never reached a ${role}`)
}

describe('the panel with the keyboard alone', () => {
  it('moves through the agents and folds subagents', async () => {
    await tabTo('tree')
    expect((await focus()).active).toMatch(/^All agents/)
    await panel.keyboard.press('ArrowDown')
    expect((await focus()).active).toMatch(/^lead, hook, run: read_file .* × 2/)
    expect(await panel.getByTestId('call-tool').allTextContents()).toEqual(['read_file', 'read_file'])
    await panel.keyboard.press('ArrowLeft')
    await expect.poll(() => panel.getByRole('treeitem').count()).toBe(3)
    await panel.keyboard.press('ArrowRight')
    await expect.poll(() => panel.getByRole('treeitem').count()).toBe(4)
    await panel.keyboard.press('ArrowRight')
    expect((await focus()).active).toMatch(/^sub, hook/)
    await panel.keyboard.press('ArrowDown')
    expect((await focus()).active).toMatch(/^other, hook/)
    await panel.keyboard.press('Home')
    await panel.keyboard.press('ArrowDown')
    expect((await focus()).active).toMatch(/^lead,/)
  })

  it('goes across the tabs with ←/→', async () => {
    await tabTo('tab')
    expect((await focus()).label).toBe('Timeline')
    await panel.keyboard.press('ArrowRight')
    expect(await focus()).toMatchObject({ role: 'tab', label: 'Config' })
    expect(await panel.getByTestId('tab-config').getAttribute('aria-selected')).toBe('true')
    await panel.keyboard.press('ArrowRight')
    expect((await focus()).label).toBe('What-if')
    await panel.keyboard.press('ArrowLeft')
    await panel.keyboard.press('ArrowLeft')
    expect((await focus()).label).toBe('Timeline')
    expect(await panel.getByTestId('tab-timeline').getAttribute('aria-selected')).toBe('true')
  })

  it('focuses the filter with Ctrl+F', async () => {
    await panel.keyboard.press('Control+F')
    expect(await panel.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('filter-text')
  })

  it("reaches the timeline, moves with ↓ and opens a call's full text with Enter", async () => {
    await panel.getByTestId('agent-label').getByText('lead', { exact: true }).click()
    await expect.poll(() => panel.getByTestId('call-tool').allTextContents()).toEqual(['read_file', 'read_file'])
    await tabTo('listbox')
    await panel.keyboard.press('ArrowDown')
    expect((await focus()).active).toMatch(/^call 1, read_file \{"path":"src\/deep\//)
    expect(await panel.getByTestId('call-args').count()).toBe(0)
    await panel.keyboard.press('Enter')
    expect(await panel.getByTestId('call-args').textContent()).toBe(JSON.stringify({ path: LONG_PATH }))
    await panel.keyboard.press('ArrowDown')
    expect((await focus()).active).toMatch(/^call 2, read_file/)
  })
})

describe('the find key in real DevTools', () => {
  it("focuses the panel's filter, not the search bar DevTools opens for extension panels", async () => {
    const withDevTools = await launch({ devtools: true })
    try {
      const page = await withDevTools.context.newPage()
      await page.goto(`${stage.server.origin}/agent.html`)
      const devtools = await devToolsFor(withDevTools.debuggingEndpoint!, page.url())
      await devtools.showPanel(`chrome-extension://${withDevTools.extensionId}RepeatToolGuard`)
      const frame = await devtools.panelFrame('/panel.html')
      // The panel's focused element, while the panel has the focus (not DevTools' own search bar).
      const focused = () => frame.evaluate(() => (document.hasFocus() ? (document.activeElement?.getAttribute('data-testid') ?? document.activeElement?.tagName) : 'outside the panel'))
      // From inside the panel (the agents), then with nothing focused in it.
      // Clicked, as a user does: a programmatic focus() inside the frame does not move DevTools'
      // own focus to the panel's frame, and the key would go to DevTools.
      await frame.locator('[role=tree]').click()
      await frame.locator('[role=tree]').focus()
      // DevTools hands the focus to the panel's frame asynchronously: press only once it is there.
      await expect.poll(focused, { timeout: 5_000 }).not.toBe('outside the panel')
      const filter = frame.getByTestId('filter-text')
      /**
       * Nothing opened DevTools' search bar for the find key: it would have taken the focus before
       * the next key was handled, and that key would have gone to it, not to the panel's filter.
       */
      async function findKeyStayedInPanel(): Promise<void> {
        await expect.poll(focused).toBe('filter-text')
        await devtools.page.keyboard.type('q')
        await expect.poll(() => filter.inputValue()).toBe('q')
        expect(await focused()).toBe('filter-text')
        await filter.fill('')
      }
      await devtools.page.keyboard.press('Control+F')
      await findKeyStayedInPanel()
      await frame.evaluate(() => (document.activeElement as HTMLElement | null)?.blur())
      expect(await focused()).toBe('BODY')
      await devtools.page.keyboard.press('Control+F')
      await findKeyStayedInPanel()
      await devtools.disconnect()
    } finally {
      await withDevTools.close()
    }
  })
})
