// The toolbar action, per tab: grey with no badge until an agent shows up, then coloured with the
// reminders fired as the badge; a reload starts the tab over; a restarted worker keeps counting;
// the popup tells the tab's story and switches zero-code mode for its origin.
import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import { useStage } from '../support/stage.ts'
import { FIXTURES_DIR, repeat, runAgent } from './fixture.ts'

const stage = useStage({ folder: FIXTURES_DIR })

beforeAll(async () => {
  // Until the freshly installed worker has run once, the browser does not know which tab events
  // it listens to, and drops them: start from a running extension, as a user does.
  await (await stage.browser.worker()).evaluate(() => chrome.runtime.id)
})

interface ActionState {
  readonly badge: string
  readonly title: string
  readonly icon: 'grey' | 'coloured' | 'unset'
}

/** What the toolbar shows for `tabId`; the icon as the worker recorded it in session storage. */
async function actionOf(tabId: number): Promise<ActionState> {
  const worker = await stage.browser.worker()
  return worker.evaluate(async (tabId) => {
    const key = `tab-summary:${tabId}`
    const stored = (await chrome.storage.session.get(key))[key] as { agents: unknown[] } | undefined
    return {
      badge: await chrome.action.getBadgeText({ tabId }),
      title: await chrome.action.getTitle({ tabId }),
      icon: stored === undefined ? ('unset' as const) : stored.agents.length > 0 ? ('coloured' as const) : ('grey' as const),
    }
  }, tabId)
}

const read = (path: string) => ['read_file', { path }] as [string, unknown]

describe('the toolbar action', () => {
  let a: { page: Page; tabId: number }
  let b: { page: Page; tabId: number }

  it('is grey without a badge while a tab has no agent', async () => {
    a = await stage.open('agent.html')
    b = await stage.open('agent.html')
    await expect.poll(() => actionOf(a.tabId)).toEqual({ badge: '', title: 'Repeat Tool Guard: no agent seen on this page', icon: 'grey' })
  })

  it('turns coloured and counts the reminders of each tab on its own', async () => {
    await runAgent(a.page, 'alpha', repeat(5, read('a.txt')))
    await runAgent(b.page, 'beta', repeat(3, read('b.txt')))
    await runAgent(b.page, 'gamma', [read('c.txt')])
    await expect.poll(() => actionOf(a.tabId)).toEqual({ badge: '2', title: 'Repeat Tool Guard: 1 agent, 2 reminders fired', icon: 'coloured' })
    await expect.poll(() => actionOf(b.tabId)).toEqual({ badge: '1', title: 'Repeat Tool Guard: 2 agents, 1 reminder fired', icon: 'coloured' })
  })

  it('goes on counting after Chrome stops the service worker', async () => {
    await stage.browser.stopServiceWorker()
    await runAgent(a.page, 'alpha', repeat(3, read('a.txt')))
    await expect.poll(() => actionOf(a.tabId), { timeout: 10_000 }).toMatchObject({ badge: '3', icon: 'coloured' })
  })

  it('starts over when the tab loads a new page', async () => {
    await a.page.reload()
    await expect.poll(() => actionOf(a.tabId)).toEqual({ badge: '', title: 'Repeat Tool Guard: no agent seen on this page', icon: 'grey' })
    expect((await actionOf(b.tabId)).badge).toBe('1')
  })

  it("has a popup that tells the tab's agents and reminders, links the panel and switches zero-code mode", async () => {
    const popup = await stage.browser.context.newPage()
    await popup.goto(`chrome-extension://${stage.browser.extensionId}/popup.html?tabId=${b.tabId}`)
    await expect.poll(() => popup.getByTestId('popup-agents').textContent()).toBe('2 agents seen')
    expect(await popup.locator('.rtg-popup-agents li').allTextContents()).toEqual(['beta hook', 'gamma hook'])
    expect(await popup.getByTestId('popup-reminders').textContent()).toBe('1 reminder fired')
    expect(await popup.getByTestId('popup-panel-link').getAttribute('href')).toBe(`panel.html?tabId=${b.tabId}`)
    // The fixture server is local: guard by default.
    expect(await popup.getByTestId('zero-code-mode').textContent()).toBe('guard')
    await popup.getByTestId('zero-code-off').click()
    await expect.poll(() => popup.getByTestId('zero-code-mode').textContent()).toBe('off')
    const stored = await (await stage.browser.worker()).evaluate(() => chrome.storage.local.get('zeroCodeOrigins'))
    expect(stored).toEqual({ zeroCodeOrigins: { [stage.server.origin]: 'off' } })
    await popup.close()
  })

  it("shows a page that never ran an agent with its origin's zero-code setting", async () => {
    const silent = await stage.open('agent.html')
    const popup = await stage.browser.context.newPage()
    await popup.goto(`chrome-extension://${stage.browser.extensionId}/popup.html?tabId=${silent.tabId}`)
    // The origin's stored setting (switched off by the test before), known only once the page reported.
    await expect.poll(() => popup.getByTestId('zero-code-mode').textContent()).toBe('off')
    expect(await popup.getByTestId('popup-reminders').textContent()).toBe('0 reminders fired')
    await popup.close()
    await silent.page.close()
  })

  it('answers no one but its own popup', async () => {
    const panel = await stage.browser.openPanel(b.tabId)
    const reply = await panel.evaluate((tabId) => chrome.runtime.sendMessage({ v: 1, kind: 'tab-summary', tabId }).catch((e: Error) => e.message), b.tabId)
    expect(reply).not.toMatchObject({ kind: 'tab-summary' })
    await panel.close()
  })
})
