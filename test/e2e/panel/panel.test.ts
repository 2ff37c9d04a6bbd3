// The panel, opened as a tab for a served page, with the built extension loaded in Chromium.
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { RECOMMENDED_CONFIG, resolveConfig } from '../../../engine/index.ts'
import { exportSession } from '../support/panel-export.ts'
import { useStage } from '../support/stage.ts'
import { engineError } from '../../support/engine-error.ts'
import { calls, labels, texts } from './live-page.ts'

const stage = useStage({ folder: resolve(import.meta.dirname, 'pages') })

describe('the live panel', () => {
  it('shows the tab’s agent, its run and both reminders as the page got them, and nothing of another tab', async () => {
    const a = await stage.open('agent.html?tab=a')
    const b = await stage.open('agent.html?tab=b')
    const received = await calls(a.page, 'alpha', 'grep', { q: 'loop' }, 5)
    await calls(b.page, 'bravo', 'read', { f: 1 }, 3)
    expect(received).toHaveLength(2)

    const panel = await stage.browser.openPanel(a.tabId)
    await expect.poll(() => labels(panel)).toEqual(['alpha'])
    await expect.poll(() => panel.getByTestId('agent-count').textContent()).toBe('5')
    await expect.poll(() => texts(panel, 'reminder-text')).toEqual(received)
    expect(received[1]).toContain('- consecutive_calls: 5')

    // live: the next calls of both tabs arrive; only this tab's show
    await calls(b.page, 'bravo', 'read', { f: 1 }, 2)
    await calls(a.page, 'alpha', 'grep', { q: 'loop' }, 1)
    await expect.poll(() => panel.getByTestId('agent-count').textContent()).toBe('6')
    expect(await labels(panel)).toEqual(['alpha'])
    expect(await panel.getByText('bravo').count()).toBe(0)
    expect(await texts(panel, 'call-tool')).toEqual(Array(6).fill('grep'))
  })

  it('tells how to get an agent on screen for a page without one, next to its page-load row', async () => {
    const { tabId } = await stage.open('plain.html')
    const panel = await stage.browser.openPanel(tabId)
    // The page's load is recorded as a row, so the timeline is not empty: the guidance shows anyway.
    await expect.poll(() => panel.locator('[data-testid=timeline-row][data-kind=page-load]').count()).toBe(1)
    expect(await panel.getByTestId('no-agent-yet').isVisible()).toBe(true)
    expect(await panel.locator('[data-testid=timeline-row]').isVisible()).toBe(true)
    expect(await panel.getByTestId('no-agent-yet').textContent()).toContain('No agent seen on this page yet.')
    expect(await panel.getByTestId('agent-label').count()).toBe(0)
  })

  it('changes what the page gets next when the thresholds change, and saves nothing invalid', async () => {
    const { page, tabId } = await stage.open('agent.html?tab=config')
    const panel = await stage.browser.openPanel(tabId)
    await calls(page, 'carol', 'ls', '/', 1)
    await panel.getByTestId('tab-config').click()
    await expect.poll(() => panel.getByTestId('config-in-force-thresholds').textContent()).toBe('3, 5, 8')
    const stored = async () => ((await (await stage.browser.worker()).evaluate(() => chrome.storage.local.get('config'))) as { config?: unknown }).config
    try {
      await panel.getByTestId('config-input').fill(JSON.stringify({ thresholds: [4, 2], exclude: ['todo_write'] }))
      await panel.getByTestId('config-apply').click()
      await expect.poll(() => page.evaluate(() => window.__REPEAT_TOOL_GUARD__.config.thresholds)).toEqual([2, 4])
      await expect.poll(() => panel.getByTestId('config-in-force-thresholds').textContent()).toBe('2, 4')
      // the run of `ls` is at 1: the very next identical call is now the second, and reminded
      expect(await calls(page, 'carol', 'ls', '/', 1)).toHaveLength(1)

      await panel.getByTestId('config-input').fill('{"thresholds": [1]}')
      expect(await panel.getByTestId('config-error').textContent()).toBe(engineError({ thresholds: [1] }))
      expect(await panel.getByTestId('config-apply').isDisabled()).toBe(true)
      await panel.getByTestId('config-input').press('Control+Enter')
      expect(await stored()).toEqual(resolveConfig({ thresholds: [2, 4], exclude: ['todo_write'] }))
      expect(await page.evaluate(() => window.__REPEAT_TOOL_GUARD__.config.thresholds)).toEqual([2, 4])
    } finally {
      await (await stage.browser.worker()).evaluate((config) => chrome.storage.local.set({ config }), RECOMMENDED_CONFIG)
    }
    await expect.poll(() => page.evaluate(() => window.__REPEAT_TOOL_GUARD__.config.thresholds)).toEqual([3, 5, 8])
  })

  it('renders a hostile page’s markup as text, and its forged messages reach nothing', async () => {
    const quiet = await stage.open('agent.html?tab=quiet')
    await calls(quiet.page, 'quiet', 'grep', 1, 1)
    const quietPanel = await stage.browser.openPanel(quiet.tabId)
    const { page, tabId } = await stage.open('hostile.html')
    const panel = await stage.browser.openPanel(tabId)
    await page.evaluate(() => window.markup())
    expect(await page.evaluate(() => window.forge())).toBeGreaterThan(0)

    await expect.poll(() => texts(panel, 'call-tool')).toEqual(Array(3).fill('<b>bold</b><script>document.title="pwned"</script>'))
    expect(await texts(panel, 'agent-label')).toEqual(['<img src=x onerror="document.title=\'pwned\'">'])
    expect(await panel.locator('[data-testid=timeline] b, [data-testid=timeline] script, [data-testid=agent-list] img').count()).toBe(0)
    // The markup's scripts set document.title: the panel's own title is untouched.
    expect(await panel.title()).toBe('Repeat Tool Guard')

    // nothing reached the other tab's panel, and the extension still works for the hostile tab
    expect(await quietPanel.getByTestId('drops').count()).toBe(0)
    expect(await texts(quietPanel, 'agent-label')).toEqual(['quiet'])
    await page.evaluate(() => window.markup())
    await expect.poll(() => panel.getByTestId('agent-count').textContent()).toBe('6')
    // The forgeries went before these calls: had they reached the extension, they would show by now.
    expect(await panel.getByTestId('drops').count()).toBe(0)
  })

  it('exports a session that imports back exactly', async () => {
    const { page, tabId } = await stage.open('agent.html?tab=export')
    await calls(page, 'exporter', 'grep', { q: 'e' }, 5)
    await calls(page, 'exporter', 'read', { f: 'x' }, 1)
    const panel = await stage.browser.openPanel(tabId)
    await expect.poll(() => texts(panel, 'reminder-text')).toHaveLength(2)
    const exported = await exportSession(panel, 'with-arguments')
    expect(JSON.parse(exported)).toMatchObject({ format: 'repeat-tool-guard/session', version: 1 })

    // an empty panel (a tab that never had an agent) takes the file
    const viewer = await stage.browser.openPanel(2_000_000_000)
    await viewer.getByTestId('import-input').setInputFiles({ name: 'session.json', mimeType: 'application/json', buffer: Buffer.from(exported) })
    await expect.poll(() => labels(viewer)).toEqual(['exporter'])
    expect(await texts(viewer, 'reminder-text')).toEqual(await texts(panel, 'reminder-text'))
    expect(await exportSession(viewer, 'with-arguments')).toBe(exported)
  })
})
