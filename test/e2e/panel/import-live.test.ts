// An imported session in the panel of a live tab: reloads, live calls and a forged page load
// change nothing of it, until the user goes back to live.
import { resolve } from 'node:path'
import type { Page } from 'playwright-core'
import { expect, it } from 'vitest'
import { exportSession } from '../support/panel-export.ts'
import { useStage } from '../support/stage.ts'

declare global {
  interface Window {
    callTool(agent: string, tool: string, args: unknown): Promise<string[]>
  }
}

const stage = useStage({ folder: resolve(import.meta.dirname, 'pages') })

const texts = (panel: Page, testId: string) => panel.getByTestId(testId).allTextContents()

async function calls(page: Page, agent: string, tool: string, times: number): Promise<void> {
  for (let i = 0; i < times; i++) await page.evaluate(([a, t]) => window.callTool(a!, t!, { q: 1 }), [agent, tool])
}

it('keeps an imported session exactly through a reload, live calls and a forged page load, until Back to live', { timeout: 30_000 }, async () => {
  const { page, tabId } = await stage.open('agent.html?import')
  const panel = await stage.browser.openPanel(tabId)
  await calls(page, 'recorded', 'grep', 5)
  await expect.poll(() => texts(panel, 'reminder-text')).toHaveLength(2)
  const file = await exportSession(panel, 'with-arguments')
  const reminders = await texts(panel, 'reminder-text')

  await panel.getByTestId('import-input').setInputFiles({ name: 'session.json', mimeType: 'application/json', buffer: Buffer.from(file) })
  await expect.poll(() => panel.getByTestId('imported-status').count()).toBe(1)

  // A page load the page forges (on the window, where it reaches nothing), a reload, and a new agent's calls.
  await page.evaluate(() => window.postMessage({ source: 'repeat-tool-guard/page', v: 1, kind: 'events', events: [{ type: 'page-load', at: Date.now(), url: 'http://forged/' }] }, '*'))
  await page.reload()
  await calls(page, 'after-reload', 'read', 3)
  await expect.poll(() => panel.getByTestId('imported-status').textContent()).toMatch(/live events? set aside/)

  expect(await panel.getByTestId('agent-label').allTextContents()).toEqual(['recorded'])
  expect(await texts(panel, 'reminder-text')).toEqual(reminders)
  expect(await exportSession(panel, 'with-arguments')).toBe(file)

  // Back to live: the tab as it is now, from the service worker's history.
  await panel.getByTestId('back-to-live').click()
  await expect.poll(() => panel.getByTestId('agent-label').allTextContents()).toEqual(['after-reload'])
  expect(await panel.getByTestId('imported-status').count()).toBe(0)
  expect(await panel.getByTestId('record-toggle').getAttribute('aria-pressed')).toBe('true')
})
