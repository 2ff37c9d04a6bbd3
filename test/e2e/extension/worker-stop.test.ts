// Chrome stops the service worker whenever it likes, also while a page is sending. What the page
// sent to a worker that stopped before it read it reaches the next worker: the badge, the popup and
// an open panel count every reminder once.
import type { Page } from 'playwright-core'
import { expect, it } from 'vitest'
import { PAGE_SOURCE } from '../../../extension/src/protocol/messages.ts'
import { useStage } from '../support/stage.ts'
import { FIXTURES_DIR, repeat, runAgent, type Call } from './fixture.ts'

const stage = useStage({ folder: FIXTURES_DIR })
const read: Call = ['read_file', { path: 'a.txt' }]

async function badgeOf(tabId: number): Promise<string> {
  return (await stage.browser.worker()).evaluate((tabId) => chrome.action.getBadgeText({ tabId }), tabId)
}

/** The inspector event types `page` posted towards the relay since `watchPosts`. */
const posted = (page: Page) => page.evaluate(() => (window as unknown as { postedTypes: string[] }).postedTypes)

/**
 * Collects what the page script posts to the relay. The relay's listener was added at
 * document_start, before this one: when this one sees a batch, the relay has passed it to its port.
 */
const watchPosts = (page: Page) =>
  page.evaluate((source) => {
    const types: string[] = []
    Object.assign(window, { postedTypes: types })
    window.addEventListener('message', (e) => {
      if (e.data?.source === source) types.push(...(e.data.events as { type: string }[]).map((event) => event.type))
    })
  }, PAGE_SOURCE)

it('counts once, on the badge, in the popup and in an open panel, the reminder sent while the worker was stopping', async () => {
  const { page, tabId } = await stage.open('agent.html')
  await runAgent(page, 'alpha', repeat(3, read))
  const panel = await stage.browser.openPanel(tabId)
  await expect.poll(() => panel.getByTestId('reminder-text').count()).toBe(1)
  await expect.poll(() => badgeOf(tabId)).toBe('1')
  await watchPosts(page)

  // The worker is busy until Chrome kills it: it reads nothing more from its ports.
  const worker = await stage.browser.worker()
  const instance = await stage.browser.workerInstance()
  const busy = new Promise<void>((started) => worker.on('console', (message) => message.text() === 'busy' && started()))
  const stuck = worker
    .evaluate(() => {
      console.log('busy')
      const end = Date.now() + 60_000
      while (Date.now() < end);
    })
    .catch(() => 'killed')
  await busy
  // The fifth call fires the second reminder; the relay hands it to its port, which nobody reads.
  await runAgent(page, 'alpha', repeat(2, read))
  await expect.poll(() => posted(page)).toContain('reminder')
  await stage.browser.stopServiceWorker(instance)
  expect(await stuck).toBe('killed')

  await expect.poll(() => badgeOf(tabId), { timeout: 15_000 }).toBe('2')
  // A sixth call goes after everything sent again: once the panel has it, it has all before it.
  await runAgent(page, 'alpha', [read])
  await expect.poll(() => panel.getByTestId('agent-count').textContent(), { timeout: 15_000 }).toBe('6')
  expect(await panel.getByTestId('call-tool').count()).toBe(6)
  expect(await panel.getByTestId('reminder-text').count()).toBe(2)
  expect(await badgeOf(tabId)).toBe('2')

  const popup = await stage.browser.context.newPage()
  await popup.goto(`chrome-extension://${stage.browser.extensionId}/popup.html?tabId=${tabId}`)
  await expect.poll(() => popup.getByTestId('popup-reminders').textContent()).toBe('2 reminders fired')
})
