// The panel where users use it: inside the DevTools window Chromium opens for a tab. It registers,
// shows the inspected page's agents and reminders live, and follows DevTools' theme.
import { resolve } from 'node:path'
import type { Frame, Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { detailed, GENTLE } from '../../fixtures/wire/reminders.ts'
import { devToolsFor, type DevTools } from '../support/devtools.ts'
import { useStage } from '../support/stage.ts'

interface AgentPage {
  callTool(agent: string, tool: string, args: unknown): Promise<string[]>
}

const stage = useStage({ folder: resolve(import.meta.dirname, 'pages'), launch: { devtools: true } })

/** Opens `path` in a new tab, then the Repeat Tool Guard panel in the DevTools window of that tab. */
async function inspect(path: string): Promise<{ page: Page; devtools: DevTools; panel: Frame; panelId: string }> {
  const page = await stage.browser.context.newPage()
  await page.goto(`${stage.server.origin}/${path}`)
  const devtools = await devToolsFor(stage.browser.debuggingEndpoint!, page.url())
  const panelId = `chrome-extension://${stage.browser.extensionId}RepeatToolGuard`
  await devtools.showPanel(panelId)
  return { page, devtools, panel: await devtools.panelFrame('/panel.html'), panelId }
}

const call = (page: Page, agent: string, tool: string, args: unknown) =>
  page.evaluate(([a, t, x]) => (window as unknown as AgentPage).callTool(a as string, t as string, x), [agent, tool, args] as const)
const texts = (frame: Frame, testId: string) => frame.locator(`[data-testid=${testId}]`).allTextContents()
// Read at once, never waiting for the element: a poll must see a missing element as a wrong value.
const panelRootStyle = (panel: Frame) =>
  panel.evaluate(() => {
    const root = document.querySelector('[data-testid=inspector]')
    return root ? { theme: root.className, background: getComputedStyle(root).backgroundColor } : undefined
  })
const themeOf = async (panel: Frame) => (await panelRootStyle(panel))?.theme ?? ''
const backgroundOf = async (panel: Frame) => (await panelRootStyle(panel))?.background

describe('the panel in real DevTools', () => {
  it('registers, and shows the inspected page’s agent, its run and its reminders live', async () => {
    // Another tab's agent, already running: the panel must not show it.
    const bystander = await stage.browser.context.newPage()
    await bystander.goto(`${stage.server.origin}/agent.html?bystander`)
    for (let i = 0; i < 3; i++) await call(bystander, 'bystander', 'read', { f: 1 })

    const { page, devtools, panel, panelId } = await inspect('agent.html?inspected')
    try {
      expect(await devtools.panelIds()).toContain(panelId)
      expect(panel.url()).toMatch(new RegExp(`^chrome-extension://${stage.browser.extensionId}/panel\\.html`))
      await expect.poll(() => panel.locator('[data-testid=no-agent-yet]').count()).toBe(1)

      const received: string[][] = []
      for (let i = 1; i <= 5; i++) {
        received.push(await call(page, 'alpha', 'grep', { q: 'loop' }))
        await expect.poll(() => texts(panel, 'agent-count')).toEqual([String(i)])
        if (i === 3) await expect.poll(() => texts(panel, 'reminder-text')).toEqual([GENTLE])
      }
      const fifth = detailed('grep', 5, '{"q":"loop"}')
      expect(received).toEqual([[], [], [GENTLE], [], [fifth]])
      await expect.poll(() => texts(panel, 'reminder-text')).toEqual([GENTLE, fifth])
      expect(await texts(panel, 'agent-label')).toEqual(['alpha'])
      expect(await texts(panel, 'call-tool')).toEqual(Array(5).fill('grep'))
    } finally {
      await devtools.disconnect()
      await bystander.close()
      await page.close()
    }
  })

  it('follows DevTools’ theme: switched to dark and back, and dark from the start in a dark DevTools', async () => {
    const { page, devtools, panel } = await inspect('plain.html?theme')
    try {
      await devtools.setTheme('default')
      await expect.poll(() => themeOf(panel)).toContain('rtg-theme-light')
      const light = await backgroundOf(panel)

      await devtools.setTheme('dark')
      await expect.poll(() => themeOf(panel)).toContain('rtg-theme-dark')
      expect(await backgroundOf(panel)).not.toBe(light)

      // DevTools' setting is the profile's: a DevTools opened now is dark, and so is its panel.
      const later = await inspect('plain.html?later')
      try {
        await expect.poll(() => themeOf(later.panel)).toContain('rtg-theme-dark')
      } finally {
        await later.devtools.disconnect()
        await later.page.close()
      }

      await devtools.setTheme('default')
      await expect.poll(() => themeOf(panel)).toContain('rtg-theme-light')
      expect(await backgroundOf(panel)).toBe(light)
    } finally {
      await devtools.setTheme('default')
      await devtools.disconnect()
      await page.close()
    }
  })
})
