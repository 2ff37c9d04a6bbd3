// The round-2 panel where users use it, inside DevTools: near repeats turned on from the Config
// tab, a page agent (page API) rewording its search, and the reminder's two calls side by side
// with their differences marked, and the time the loop took in the waste meter.
import { resolve } from 'node:path'
import type { Frame, Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { devToolsFor } from '../support/devtools.ts'
import { useStage } from '../support/stage.ts'

interface AgentPage {
  callTool(agent: string, tool: string, args: unknown): Promise<string[]>
}

const stage = useStage({ folder: resolve(import.meta.dirname, 'pages'), launch: { devtools: true } })

const call = (page: Page, tool: string, args: unknown) => page.evaluate(([t, x]) => (window as unknown as AgentPage).callTool('searcher', t as string, x), [tool, args] as const)

/** A side of the diff as text, its marked parts in brackets. */
const marked = (panel: Frame, testId: string) =>
  panel.locator(`[data-testid=${testId}]`).evaluate((side) => [...side.childNodes].map((node) => (node.nodeName === 'MARK' ? `[${node.textContent}]` : node.textContent)).join(''))

describe('near repeats in the DevTools panel', () => {
  it('shows the two calls of a near repeat side by side, and the time the loop took', async () => {
    const page = await stage.browser.context.newPage()
    await page.goto(`${stage.server.origin}/agent.html?similar`)
    const devtools = await devToolsFor(stage.browser.debuggingEndpoint!, page.url())
    try {
      await devtools.showPanel(`chrome-extension://${stage.browser.extensionId}RepeatToolGuard`)
      const panel = await devtools.panelFrame('/panel.html')
      // A click while DevTools is still settling the panel can be lost, and a busy machine can take
      // seconds to render the panel at all: open Config until it shows, each click given a second.
      await expect
        .poll(
          async () => {
            await panel.getByTestId('tab-config').click({ timeout: 1_000 })
            return panel.getByTestId('config-input').count()
          },
          { timeout: 20_000 },
        )
        .toBe(1)
      await panel.getByTestId('config-input').fill(JSON.stringify({ similar: { threshold: 0.6, minCalls: 3 } }))
      await panel.getByTestId('config-apply').click()
      await expect.poll(() => page.evaluate(() => window.__REPEAT_TOOL_GUARD__.config.similar)).toEqual({ threshold: 0.6, minCalls: 3 })

      const received: string[][] = []
      for (const q of ['configure auth', 'configure the auth', 'configure auth now']) received.push(await call(page, 'search', { q }))
      expect(received.map((texts) => texts.length)).toEqual([0, 0, 1])
      expect(received[2]![0]).toMatch(/^Near-repeated tool calls detected:\n- tool: search\n- similar_calls: 3\n/)

      await panel.getByTestId('tab-timeline').click()
      const toggle = panel.getByTestId('trigger-toggle')
      await expect.poll(() => toggle.textContent()).toBe('▸ Triggered by 3 calls of search in a row, each alike to the one before but not identical')
      await toggle.click()
      expect(await marked(panel, 'diff-previous')).toBe('{"q":"configure [the ]auth"}')
      expect(await marked(panel, 'diff-firing')).toBe('{"q":"configure auth[ now]"}')
      await expect.poll(() => panel.getByTestId('agent-waste-cost').textContent()).toMatch(/^\d+ ms$|^\d+\.\d s$/)
      expect(await panel.getByTestId('tab-waste').textContent()).toMatch(/^Wasted: 3 calls · (\d+ ms|\d+\.\d s)$/)
    } finally {
      await devtools.disconnect()
      await page.close()
    }
  })
})
