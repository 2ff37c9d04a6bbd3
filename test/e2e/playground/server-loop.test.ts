// The playground's page of agents whose loop runs on a server (server-loop.html), as a newcomer
// runs it: the same two scenarios with the extension (its DevTools panel) and without (the
// playground's own guard and the panel inline), with the same outcome.
import type { Page } from 'playwright-core'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { detailed, GENTLE } from '../../fixtures/wire/reminders.ts'
import { DIST_DIR } from '../support/browser.ts'
import { useStage } from '../support/stage.ts'

const stage = useStage({ folder: join(DIST_DIR, 'playground'), plain: true })
const DETAILED = detailed('search', 5, '{"q":"threshold"}')

async function run(page: Page, tools: 'server' | 'client'): Promise<void> {
  await page.goto(`${stage.server.origin}/server-loop.html`)
  await page.getByTestId(`run-${tools}`).click()
  await expect.poll(() => page.getByTestId('chat-status').textContent(), { timeout: 15_000 }).toBe('ready')
  await expect.poll(() => page.locator('[data-testid="chat-message"][data-role="assistant"] .text').count()).toBeGreaterThan(0)
  // The page draws the chat's last state in a later frame than its status.
  await expect.poll(() => page.locator('[data-testid="chat-call"][data-state="output-available"]').count()).toBe(6)
}

/** What the scripted server's model said it received after the prompt, response by response. */
const received = (page: Page) => page.getByTestId('chat-received').locator('pre').allTextContents()

async function expectWouldRemind(panel: Page | ReturnType<Page['getByTestId']>): Promise<void> {
  const row = panel.getByTestId('agent-row').filter({ hasText: 'ui-stream' })
  await expect.poll(() => row.count()).toBe(1)
  await expect.poll(() => panel.getByTestId('reminder-withheld').allTextContents()).toEqual(Array(2).fill('would remind: the loop runs on the server'))
  expect(await panel.getByTestId('reminder-text').allTextContents()).toEqual([GENTLE, DETAILED])
  expect(await row.getByTestId('agent-loop-spent').textContent()).toBe('3 in server loop')
}

describe('without the extension: the playground guards the chat itself, the panel inline', () => {
  test('tools on the server: would-remind rows at 3 and 5, and the calls spent in the loop', async () => {
    const page = await stage.plain.context.newPage()
    await run(page, 'server')
    expect(await received(page)).toEqual([])
    await expectWouldRemind(page.getByTestId('inspector-inline'))
    await page.close()
  })

  test("tools on the page: the reminders go into the next requests, and the server's model receives them", async () => {
    const page = await stage.plain.context.newPage()
    await run(page, 'client')
    // Follow-ups 3 and 4 carry the gentle one; 5 and 6 both.
    expect(await received(page)).toEqual([GENTLE, GENTLE, GENTLE, DETAILED, GENTLE, DETAILED])
    expect(await page.getByTestId('inspector-inline').getByTestId('reminder-withheld').count()).toBe(0)
    await page.close()
  })
})

describe('with the extension: its DevTools panel shows the same', () => {
  test('tools on the server: would-remind rows at 3 and 5 in the panel, nothing inline', async () => {
    const page = await stage.browser.context.newPage()
    await run(page, 'server')
    expect(await page.getByTestId('inspector-extension').isVisible()).toBe(true)
    const panel = await stage.browser.openPanel(await stage.browser.tabId(page))
    await panel.getByTestId('agent-row').filter({ hasText: 'ui-stream' }).click()
    await expectWouldRemind(panel)
    await panel.close()
    await page.close()
  })

  test("tools on the page: the extension puts the reminders in the next requests, and the server's model receives them", async () => {
    const page = await stage.browser.context.newPage()
    await run(page, 'client')
    expect(await received(page)).toEqual([GENTLE, GENTLE, GENTLE, DETAILED, GENTLE, DETAILED])
    await page.close()
  })
})
