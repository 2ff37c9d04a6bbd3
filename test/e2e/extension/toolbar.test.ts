// The toolbar action, per tab: grey with no badge until an agent shows up, then coloured with the
// reminders fired as the badge; a reload starts the tab over; a restarted worker keeps counting;
// the popup tells the tab's story and switches zero-code mode for its origin.
import type { Page } from 'playwright-core'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { ZERO_CODE_STORAGE_KEY } from '../../../extension/src/protocol/zero-code-mode.ts'
import { wakeWorker } from '../support/browser.ts'
import { useStage } from '../support/stage.ts'
import { FIXTURES_DIR, repeat, runAgent } from './fixture.ts'

const stage = useStage({ folder: FIXTURES_DIR })

beforeAll(async () => {
  await wakeWorker(stage.browser)
})

interface ActionState {
  readonly badge: string
  readonly title: string
  readonly icon: 'grey' | 'coloured'
}

/**
 * What the toolbar shows for `tabId`. No API reads an icon back: it is the manifest's grey one
 * until the worker stores an agent for the tab, and sets the coloured one with it.
 */
async function actionOf(tabId: number): Promise<ActionState> {
  const worker = await stage.browser.worker()
  return worker.evaluate(async (tabId) => {
    const key = `tab-summary:${tabId}`
    const stored = (await chrome.storage.session.get(key))[key] as { agents: unknown[] } | undefined
    return {
      badge: await chrome.action.getBadgeText({ tabId }),
      title: await chrome.action.getTitle({ tabId }),
      icon: stored !== undefined && stored.agents.length > 0 ? ('coloured' as const) : ('grey' as const),
    }
  }, tabId)
}

const read = (path: string) => ['read_file', { path }] as [string, unknown]

type SummaryWrite = [key: string, value: { agents: unknown[] }]

/** Every write to session storage from now on, as its change events tell them, until `stop()` hands them over. */
async function summaryWrites(): Promise<{ stop(): Promise<SummaryWrite[]> }> {
  const worker = await stage.browser.worker()
  await worker.evaluate(() => {
    const writes: [string, unknown][] = []
    const listener = (changes: Record<string, chrome.storage.StorageChange>) => {
      for (const [name, { newValue }] of Object.entries(changes)) writes.push([name, newValue])
    }
    chrome.storage.session.onChanged.addListener(listener)
    Object.assign(globalThis, { summaryWrites: { writes, stop: () => chrome.storage.session.onChanged.removeListener(listener) } })
  })
  return {
    stop: () =>
      worker.evaluate(() => {
        const { writes, stop } = (globalThis as unknown as { summaryWrites: { writes: SummaryWrite[]; stop: () => void } }).summaryWrites
        stop()
        return writes
      }),
  }
}

/** The origins' stored zero-code settings: none unless a test stores one (and it is cleared after). */
const storeOrigins = (origins: Record<string, string> | undefined) =>
  stage.browser
    .worker()
    .then((worker) =>
      worker.evaluate(([key, origins]) => (origins === undefined ? chrome.storage.local.remove(key) : chrome.storage.local.set({ [key]: origins })), [ZERO_CODE_STORAGE_KEY, origins] as const),
    )

afterEach(() => storeOrigins(undefined))

/** A tab whose agent `name` ran `repeats` identical calls. */
async function tabWithAgent(name: string, repeats: number): Promise<{ page: Page; tabId: number }> {
  const tab = await stage.open('agent.html')
  await runAgent(tab.page, name, repeat(repeats, read(`${name}.txt`)))
  return tab
}

describe('the toolbar action', () => {
  it('is grey without a badge while a tab has no agent', async () => {
    const { tabId } = await stage.open('agent.html')
    await expect.poll(() => actionOf(tabId)).toEqual({ badge: '', title: 'Repeat Tool Guard: no agent seen on this page', icon: 'grey' })
  })

  it('turns coloured and counts the reminders of each tab on its own', async () => {
    const a = await tabWithAgent('alpha', 5)
    const b = await tabWithAgent('beta', 3)
    await runAgent(b.page, 'gamma', [read('c.txt')])
    await expect.poll(() => actionOf(a.tabId)).toEqual({ badge: '2', title: 'Repeat Tool Guard: 1 agent, 2 reminders fired', icon: 'coloured' })
    await expect.poll(() => actionOf(b.tabId)).toEqual({ badge: '1', title: 'Repeat Tool Guard: 2 agents, 1 reminder fired', icon: 'coloured' })
  })

  it('goes on counting after Chrome stops the service worker', async () => {
    const a = await tabWithAgent('alpha', 5)
    await expect.poll(() => actionOf(a.tabId)).toMatchObject({ badge: '2' })
    await stage.browser.stopServiceWorker()
    await runAgent(a.page, 'alpha', repeat(3, read('alpha.txt')))
    await expect.poll(() => actionOf(a.tabId)).toEqual({ badge: '3', title: 'Repeat Tool Guard: 1 agent, 3 reminders fired', icon: 'coloured' })
  })

  it('starts over when the tab loads a new page', async () => {
    const a = await tabWithAgent('alpha', 3)
    const b = await tabWithAgent('beta', 3)
    await expect.poll(() => actionOf(a.tabId)).toMatchObject({ badge: '1' })
    await expect.poll(() => actionOf(b.tabId)).toMatchObject({ badge: '1' })
    await a.page.reload()
    await expect.poll(() => actionOf(a.tabId)).toEqual({ badge: '', title: 'Repeat Tool Guard: no agent seen on this page', icon: 'grey' })
    expect((await actionOf(b.tabId)).badge).toBe('1')
  })

  it('sets and stores nothing when a tab without an agent loads a new page', async () => {
    const { page, tabId } = await stage.open('agent.html')
    const listening = await summaryWrites()
    let writes: SummaryWrite[]
    try {
      await page.reload()
      await page.reload()
      // The agent's summary is stored after the start-overs of the loads before it (the worker folds a tab's changes in order).
      await runAgent(page, 'alpha', repeat(3, read('alpha.txt')))
      await expect.poll(() => actionOf(tabId)).toEqual({ badge: '1', title: 'Repeat Tool Guard: 1 agent, 1 reminder fired', icon: 'coloured' })
    } finally {
      writes = await listening.stop()
    }
    const agentsStored = writes.filter(([name]) => name === `tab-summary:${tabId}`).map(([, summary]) => summary.agents.length)
    expect(agentsStored.length).toBeGreaterThan(0)
    expect(agentsStored.every((agents) => agents === 1)).toBe(true)
  })

  it("has a popup that tells the tab's agents and reminders, links the panel and switches zero-code mode", async () => {
    const b = await tabWithAgent('beta', 3)
    await runAgent(b.page, 'gamma', [read('c.txt')])
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
    const stored = await (await stage.browser.worker()).evaluate((key) => chrome.storage.local.get(key), ZERO_CODE_STORAGE_KEY)
    expect(stored).toEqual({ [ZERO_CODE_STORAGE_KEY]: { [stage.server.origin]: 'off' } })
    await popup.close()
  })

  it("shows a page that never ran an agent with its origin's zero-code setting", async () => {
    await storeOrigins({ [stage.server.origin]: 'off' })
    const silent = await stage.open('agent.html')
    const popup = await stage.browser.context.newPage()
    await popup.goto(`chrome-extension://${stage.browser.extensionId}/popup.html?tabId=${silent.tabId}`)
    // The origin's stored setting, known only once the page reported.
    await expect.poll(() => popup.getByTestId('zero-code-mode').textContent()).toBe('off')
    expect(await popup.getByTestId('popup-reminders').textContent()).toBe('0 reminders fired')
    await popup.close()
    await silent.page.close()
  })

  it('answers no one but its own popup', async () => {
    const b = await tabWithAgent('beta', 3)
    await expect.poll(() => actionOf(b.tabId)).toMatchObject({ badge: '1' })
    const panel = await stage.browser.openPanel(b.tabId)
    // The popup's own question, asked by another extension page: no summary comes back.
    const reply = await panel.evaluate((tabId) => chrome.runtime.sendMessage({ v: 1, kind: 'tab-summary', tabId }).catch((e: Error) => e.message), b.tabId)
    expect(reply).not.toMatchObject({ kind: 'tab-summary' })
    await panel.close()
  })
})
