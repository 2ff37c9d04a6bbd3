// Export from the real panel in Chromium, both ways: the sanitized file (the button) holds none of
// the secrets an agent's calls and the page's address carried, the file with arguments (the menu,
// by keyboard) holds the arguments; each imports into another panel and shows what it holds.
import { readFile } from 'node:fs/promises'
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

const ARGUMENT = 'sk-e2e-argument-secret-4242'
const PAGE_TOKEN = 'page-token-secret-1717'
const ROUTE_TOKEN = 'route-token-secret-2323'

const texts = (panel: Page, testId: string) => panel.getByTestId(testId).allTextContents()

async function importFile(panel: Page, text: string): Promise<void> {
  await panel.getByTestId('import-input').setInputFiles({ name: 'session.json', mimeType: 'application/json', buffer: Buffer.from(text) })
  await expect.poll(() => panel.getByTestId('imported-status').count()).toBe(1)
}

/** "Export with arguments" with the keyboard alone: Tab to the menu's arrow, ↓ to the choices, ↓ and Enter. */
async function exportWithArgumentsByKeyboard(panel: Page): Promise<string> {
  await panel.getByTestId('export').focus()
  await panel.keyboard.press('Tab')
  expect(await panel.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('export-menu')
  await panel.keyboard.press('ArrowDown')
  await expect.poll(() => panel.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('export-sanitized')
  await panel.keyboard.press('ArrowDown')
  expect(await panel.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('export-with-arguments')
  const [download] = await Promise.all([panel.waitForEvent('download'), panel.keyboard.press('Enter')])
  expect(download.suggestedFilename()).toMatch(/-with-arguments\.json$/)
  return readFile(await download.path(), 'utf8')
}

it('exports sanitized from the button and with arguments from its menu; both files import', { timeout: 60_000 }, async () => {
  const { page, tabId } = await stage.open(`agent.html?tab=export&accessToken=${PAGE_TOKEN}#/chat/42?token=${ROUTE_TOKEN}`)
  for (let i = 0; i < 5; i++) await page.evaluate((secret) => window.callTool('exporter', 'login', { password: secret }), ARGUMENT)
  const panel = await stage.browser.openPanel(tabId)
  await expect.poll(() => texts(panel, 'reminder-text')).toHaveLength(2)
  expect((await texts(panel, 'reminder-text'))[1]).toContain(ARGUMENT)

  const sanitized = await exportSession(panel)
  const full = await exportWithArgumentsByKeyboard(panel)
  for (const secret of [ARGUMENT, PAGE_TOKEN, ROUTE_TOKEN]) expect(sanitized.includes(secret), secret).toBe(false)
  expect(JSON.parse(sanitized)).toMatchObject({ sanitized: true })
  expect(sanitized).toContain('[sanitized: ')
  // The file with arguments holds them, in the calls and in the reminder that quotes them; never the URLs' secrets.
  expect(full.split(ARGUMENT).length - 1).toBeGreaterThanOrEqual(6)
  for (const secret of [PAGE_TOKEN, ROUTE_TOKEN]) expect(full.includes(secret), secret).toBe(false)
  for (const file of [sanitized, full]) expect(file).toContain('accessToken=REDACTED#/chat/42?token=REDACTED')

  // Each file, opened in a panel of a tab that never had an agent.
  const viewer = await stage.browser.openPanel(2_000_000_001)
  await importFile(viewer, sanitized)
  await expect.poll(() => viewer.getByTestId('agent-label').allTextContents()).toEqual(['exporter'])
  expect(await viewer.getByTestId('import-sanitized').count()).toBe(1)
  expect(await texts(viewer, 'reminder-text')).toHaveLength(2)
  expect((await texts(viewer, 'reminder-text'))[1]).toMatch(/- arguments: \[sanitized: \d+ chars, hash [0-9a-f]{16}\]/)
  expect((await viewer.content()).includes(ARGUMENT)).toBe(false)
  expect(await exportSession(viewer)).toBe(sanitized)

  await viewer.getByTestId('back-to-live').click()
  await importFile(viewer, full)
  await expect.poll(() => texts(viewer, 'reminder-text')).toEqual(await texts(panel, 'reminder-text'))
  expect(await viewer.getByTestId('import-sanitized').count()).toBe(0)
  expect(await exportSession(viewer, 'with-arguments')).toBe(full)
})
