// A wire agent as the DevTools panel shows it: the conversation as one agent of kind wire, its
// calls, each reminder exactly as the model got it and where it went, its requests; and the same
// again after the service worker was stopped (the page re-sends its wire agents in a snapshot).
import type { Page } from 'playwright-core'
import { beforeAll, expect, test } from 'vitest'
import { anthropicBody, repeat, requests } from '../../fixtures/wire/conversations.ts'
import { detailed, GENTLE } from '../../fixtures/wire/reminders.ts'
import { useStage } from '../support/stage.ts'
import { routeBlankPage } from './blank-page.ts'

const stage = useStage({ routes: routeBlankPage })
let tabId: number

const SYSTEM = 'You are a research agent.'

beforeAll(async () => {
  stage.mock.script('panel-model', { steps: [], answer: 'ok' })
  const page = await stage.browser.context.newPage()
  await page.goto(`${stage.server.origin}/blank`)
  tabId = await stage.browser.tabId(page)
  // The page's agent, request after request: five identical searches.
  const bodies = requests({ system: SYSTEM, turns: [{ prompt: 'Who wrote it?' }, ...repeat({ name: 'search', args: { q: 'author' } }, 5)] }, anthropicBody)
  for (const body of bodies.map((b) => JSON.stringify({ ...b, model: 'panel-model', stream: false }))) {
    const status = await page.evaluate((text) => fetch('/v1/messages', { method: 'POST', body: text, headers: { 'content-type': 'application/json' } }).then((r) => r.status), body)
    expect(status).toBe(200)
  }
})

async function expectWireAgent(panel: Page): Promise<void> {
  const row = panel.getByTestId('agent-row').filter({ hasText: SYSTEM })
  await expect.poll(() => row.count()).toBe(1)
  expect(await row.getByTestId('agent-kind').textContent()).toBe('wire')
  expect(await row.getByTestId('agent-reach').textContent()).toBe('fetch')
  await expect.poll(() => row.getByTestId('agent-count').textContent()).toBe('5')
  expect(await row.getByTestId('agent-chain').textContent()).toBe('search {"q":"author"}')
}

test('the conversation is one wire agent, with its calls, reminders and where they went, and its requests', async () => {
  const panel = await stage.browser.openPanel(tabId)
  await expectWireAgent(panel)
  await panel.getByTestId('agent-row').filter({ hasText: SYSTEM }).click()
  const reminders = panel.locator('[data-testid="timeline-row"][data-kind="reminder"]')
  await expect.poll(() => reminders.count()).toBe(2)
  expect(await panel.getByTestId('reminder-text').allTextContents()).toEqual([GENTLE, detailed('search', 5, '{"q":"author"}')])
  expect(await reminders.locator('.rtg-placement code').allTextContents()).toEqual(['messages[6].content[1]', 'messages[10].content[1]'])
  expect(await panel.locator('[data-testid="timeline-row"][data-kind="call"]').count()).toBe(5)
  expect(await panel.locator('[data-testid="timeline-row"][data-kind="request"]').count()).toBe(5)
  expect(await panel.getByTestId('wire-note').textContent()).toContain('workers and service workers, WebSockets')
  await panel.close()
})

test('after the service worker was stopped, a new panel gets the wire agent back from the page', async () => {
  await stage.browser.stopServiceWorker()
  const panel = await stage.browser.openPanel(tabId)
  await expectWireAgent(panel)
  await panel.close()
})
