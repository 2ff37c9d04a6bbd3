// The message path page -> content -> service worker -> panel port, checked at the port the panel
// uses: per-tab history and live batches, tab isolation, recovery after the service worker is
// stopped, and the config flow storage -> content -> page.
import type { Page } from 'playwright-core'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { RECOMMENDED_CONFIG } from '../../../engine/index.ts'
import type { PanelEvent } from '../../../extension/src/protocol/events.ts'
import { CONFIG_STORAGE_KEY } from '../../../extension/src/protocol/messages.ts'
import { useStage } from '../support/stage.ts'
import { FIXTURES_DIR, GENTLE_REMINDER, repeat, runAgent, type AgentWindow } from './fixture.ts'
import { tapPanelPort, type PanelTap } from './panel-tap.ts'

const stage = useStage({ folder: FIXTURES_DIR })
let pageA: Page
let pageB: Page
let tabA: number
let tabB: number
/** An extension page: the panel's port may only be opened from one of those. */
let extensionPage: Page
let tapA: PanelTap

const ofType = <T extends PanelEvent['type']>(events: PanelEvent[], type: T) => events.filter((e): e is Extract<PanelEvent, { type: T }> => e.type === type)

const configOf = (page: Page) => page.evaluate(() => (window as unknown as AgentWindow).__REPEAT_TOOL_GUARD__.config)

const store = (value: unknown) =>
  extensionPage.evaluate(([key, value]) => (value === undefined ? chrome.storage.local.remove(key) : chrome.storage.local.set({ [key]: value })), [CONFIG_STORAGE_KEY, value] as const)

// Every test gets two fresh tabs, an extension page and a subscriber of tab A of its own.
beforeEach(async () => {
  ;({ page: pageA, tabId: tabA } = await stage.open('agent.html?tab=a'))
  ;({ page: pageB, tabId: tabB } = await stage.open('agent.html?tab=b'))
  extensionPage = await stage.browser.openPanel(tabA)
  tapA = await tapPanelPort(extensionPage, tabA)
})

afterEach(async () => {
  for (const page of [pageA, pageB, extensionPage]) await page?.close()
})

describe('the bridge from page to panel', () => {
  it('gives a late subscriber the tab history first, then live batches', async () => {
    await runAgent(pageA, 'alpha', repeat(3, ['read_file', { path: 'a.txt' }]))
    // Once the first subscriber has the reminder, the worker has buffered everything before it.
    await expect.poll(async () => ofType(await tapA.events(), 'reminder').length).toBe(1)

    const late = await tapPanelPort(extensionPage, tabA)
    await expect.poll(async () => (await late.messages()).length).toBeGreaterThan(0)
    const [history] = await late.messages()
    expect(history).toMatchObject({ kind: 'history', tabId: tabA, truncated: false })
    const events = await late.events()
    expect(events[0]).toMatchObject({ type: 'page-load', url: `${stage.server.origin}/agent.html?tab=a` })
    expect(events[1]).toMatchObject({ type: 'config', config: RECOMMENDED_CONFIG })
    expect(ofType(events, 'agent')).toEqual([expect.objectContaining({ agent: { id: 'hook:1', kind: 'hook', label: 'alpha' } })])
    expect(ofType(events, 'call').map((c) => [c.tool, c.args, c.count, c.nextThreshold])).toEqual([
      ['read_file', '{"path":"a.txt"}', 1, 3],
      ['read_file', '{"path":"a.txt"}', 2, 3],
      ['read_file', '{"path":"a.txt"}', 3, 5],
    ])
    expect(ofType(events, 'reminder')).toEqual([expect.objectContaining({ agentId: 'hook:1', seq: 3, level: 'gentle', text: GENTLE_REMINDER })])

    await runAgent(pageA, 'alpha', [['read_file', { path: 'a.txt' }]])
    await expect.poll(async () => ofType(await late.events(), 'call').length).toBe(4)
    const live = (await late.messages()).flatMap((m) => (m.kind === 'batch' ? m.batch.events : []))
    expect(ofType(live, 'call')).toEqual([expect.objectContaining({ count: 4 })])
  })

  it("never delivers one tab's events to another tab's subscriber", async () => {
    const tapB = await tapPanelPort(extensionPage, tabB)
    await runAgent(pageB, 'beta', repeat(3, ['only_in_b', { secret: 'b' }]))
    await expect.poll(async () => ofType(await tapB.events(), 'reminder').length).toBe(1)
    // A later event of tab A went through the same worker: had B's leaked, it would be there by now.
    await runAgent(pageA, 'gamma', [['after_b', {}]])
    await expect.poll(async () => ofType(await tapA.events(), 'call').some((c) => c.tool === 'after_b')).toBe(true)

    const eventsA = await tapA.events()
    expect(eventsA.some((e) => JSON.stringify(e).includes('only_in_b') || JSON.stringify(e).includes('beta'))).toBe(false)
    expect((await tapA.batches()).every((b) => b.url.endsWith('?tab=a'))).toBe(true)
    const eventsB = await tapB.events()
    expect(ofType(eventsB, 'call').map((c) => c.tool)).toEqual(['only_in_b', 'only_in_b', 'only_in_b'])
    expect((await tapB.batches()).every((b) => b.url.endsWith('?tab=b'))).toBe(true)
  })

  it('resumes with a snapshot after the service worker is stopped, without reloading the page', async () => {
    await runAgent(pageA, 'alpha', repeat(4, ['read_file', { path: 'a.txt' }]))
    await runAgent(pageA, 'gamma', [['after_b', {}]])
    await expect.poll(async () => ofType(await tapA.events(), 'call').length).toBe(5)
    await pageA.evaluate(() => void ((window as unknown as { sameDocument: boolean }).sameDocument = true))
    await stage.browser.stopServiceWorker()
    await expect.poll(() => tapA.disconnected()).toBe(true)

    tapA = await tapPanelPort(extensionPage, tabA)
    // The panel merges the snapshots it gets agent by agent: together they hold every agent.
    const snapshots = async () => ofType(await tapA.events(), 'snapshot')
    await expect
      .poll(async () => (await snapshots()).flatMap((snapshot) => snapshot.agents), { timeout: 15_000 })
      .toEqual(
        expect.arrayContaining([
          { id: 'hook:1', kind: 'hook', label: 'alpha', tool: 'read_file', args: '{"path":"a.txt"}', count: 4, nextThreshold: 5 },
          expect.objectContaining({ label: 'gamma', tool: 'after_b', count: 1 }),
        ]),
      )
    expect((await snapshots()).map((snapshot) => snapshot.config.thresholds)).toEqual(expect.arrayContaining([[3, 5, 8]]))

    const [fifth] = await runAgent(pageA, 'alpha', [['read_file', { path: 'a.txt' }]])
    expect(fifth![0]).toContain('- consecutive_calls: 5')
    const reminders = async () => ofType(await tapA.events(), 'reminder').map((r) => [r.count, r.level])
    await expect.poll(reminders).toContainEqual([5, 'detailed'])
    // The third call's reminder comes again when the worker had not acknowledged it before it
    // stopped: the relay sends what was unacknowledged after reconnecting (docs/extension.md, "When
    // the browser stops the service worker"). It comes once at most, and before the fifth's.
    expect([
      [[5, 'detailed']],
      [
        [3, 'gentle'],
        [5, 'detailed'],
      ],
    ]).toContainEqual(await reminders())
    expect(await pageA.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true)
  })

  it('brings a config written to extension storage to the page, and refuses an invalid one', async () => {
    try {
      // A page that has said nothing holds no relay: stored settings reach it once it speaks.
      await runAgent(pageA, 'warm-up', [['ls', {}]])
      await store({ thresholds: [2, 4], include: [], exclude: ['todo_write'], argumentsPreviewChars: 500 })
      await expect.poll(async () => (await configOf(pageA)).thresholds).toEqual([2, 4])
      expect(await runAgent(pageA, 'delta', repeat(4, ['list_dir', { dir: '.' }]))).toEqual([[], [GENTLE_REMINDER], [], [expect.stringContaining('- consecutive_calls: 4')]])
      await expect.poll(async () => ofType(await tapA.events(), 'config').map((c) => c.config.thresholds)).toContainEqual([2, 4])

      await store({ thresholds: [1] })
      await expect.poll(async () => ofType(await tapA.events(), 'fault').map((f) => f.message)).toContainEqual(expect.stringContaining('stored config rejected'))
      expect((await configOf(pageA)).thresholds).toEqual([2, 4])
      expect(await runAgent(pageA, 'epsilon', repeat(2, ['list_dir', { dir: '..' }]))).toEqual([[], [GENTLE_REMINDER]])

      await store(undefined)
      await expect.poll(async () => (await configOf(pageA)).thresholds).toEqual([3, 5, 8])
    } finally {
      // Storage outlives the test: the next one starts under the recommended config whatever happened here.
      await store(undefined)
    }
  })
})
