// Chrome stops the service worker whenever it likes, also while a page is sending. What the page
// sent to a worker that stopped before it read it reaches the next worker: the badge, the popup and
// an open panel count every reminder once.
import type { Page } from 'playwright-core'
import { expect, it } from 'vitest'
import { useStage } from '../support/stage.ts'
import { FIXTURES_DIR, repeat, runAgent, type Call } from './fixture.ts'

const stage = useStage({ folder: FIXTURES_DIR })
const read: Call = ['read_file', { path: 'a.txt' }]

async function badgeOf(tabId: number): Promise<string> {
  return (await stage.browser.worker()).evaluate((tabId) => chrome.action.getBadgeText({ tabId }), tabId)
}

/**
 * Resolves once what `page` reported so far has reached the relay. The page script posts on its
 * channel to the relay at most one batcher interval (16 ms) after its last event, and a channel's
 * messages arrive as tasks in the order they were posted: once that interval has passed, a message
 * the page posts on a channel of its own arrives after the relay had the batch (and passed it to its
 * port: the relay does that as it reads it).
 */
const reachedRelay = (page: Page) =>
  page.evaluate(async () => {
    await new Promise((passed) => setTimeout(passed, 100))
    const { port1, port2 } = new MessageChannel()
    await new Promise((arrived) => {
      port1.onmessage = arrived
      port2.postMessage('after the batch')
    })
  })

it('counts once, on the badge, in the popup and in an open panel, the reminder sent while the worker was stopping', async () => {
  const { page, tabId } = await stage.open('agent.html')
  await runAgent(page, 'alpha', repeat(3, read))
  const panel = await stage.browser.openPanel(tabId)
  await expect.poll(() => panel.getByTestId('reminder-text').count()).toBe(1)
  await expect.poll(() => badgeOf(tabId)).toBe('1')

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
  await reachedRelay(page)
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
