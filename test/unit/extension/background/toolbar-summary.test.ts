import { describe, expect, it } from 'vitest'
import { answerPopup } from '../../../../extension/src/background/popup-requests.ts'
import { createTabSummaries } from '../../../../extension/src/background/tab-summaries.ts'
import { EMPTY_SUMMARY, summarise } from '../../../../extension/src/background/tab-summary.ts'
import { badgeOf, showOnToolbar, titleOf, type ToolbarAction } from '../../../../extension/src/background/toolbar-action.ts'
import type { PanelEvent } from '../../../../extension/src/protocol/events.ts'
import { MAX_SUMMARY_AGENTS, type TabSummary } from '../../../../extension/src/protocol/messages.ts'
import { checkBackgroundToPopup, checkPopupToBackground, checkTabSummary } from '../../../../extension/src/protocol/validate.ts'
import { memoryStorage } from '../support/memory-storage.ts'
import { agentEvent as agent, EVENTS, reminderEvent as reminder, tabBatch, v } from '../support/samples.ts'

const checkTabSummaryOk = (summary: TabSummary) => checkTabSummary(summary).ok
const pageLoad = (url: string): PanelEvent => ({ type: 'page-load', at: 1, url })
/** A batch of the top frame (or `frameId`) at `url`, from a sender of `origin`. */
const batchAt = (url: string, origin: string, events: PanelEvent[], frameId = 0) => ({ ...tabBatch(events, frameId), url, origin })

describe("a tab's toolbar summary", () => {
  it('counts agents once each, snapshots included, and delivered and observed reminders apart', () => {
    const s = summarise(EMPTY_SUMMARY, tabBatch([agent('hook:1'), EVENTS.snapshot, reminder, { ...reminder, withheld: 'observe' }, reminder]))
    expect(s).toEqual({
      pageUrl: 'http://127.0.0.1/agent.html',
      pageOrigin: 'http://127.0.0.1',
      agents: [
        { id: 'hook:1', label: 'hook:1', kind: 'hook' },
        { id: 'wire:1', label: 'You are a helpful', kind: 'wire' },
      ],
      reminders: 2,
      observed: 1,
    })
    expect(summarise(s, tabBatch([EVENTS.snapshot, EVENTS.call]))).toBe(s)
  })

  it("starts over on the top frame's page load, not an iframe's", () => {
    const s = summarise(EMPTY_SUMMARY, tabBatch([agent('hook:1'), reminder]))
    expect(summarise(s, tabBatch([pageLoad('http://127.0.0.1/frame.html')], 3))).toEqual({ ...s, agents: s.agents, reminders: 1 })
    const next = batchAt('http://127.0.0.1/next.html', 'http://127.0.0.1', [pageLoad('http://127.0.0.1/next.html')])
    expect(summarise(s, next)).toEqual({ ...EMPTY_SUMMARY, pageUrl: 'http://127.0.0.1/next.html', pageOrigin: 'http://127.0.0.1' })
  })

  it("keeps the page's address and origin from the batch, never from the page-load event the page wrote", () => {
    const forged = [pageLoad('https://bank.example/accounts'), agent('hook:1')]
    const s = summarise(EMPTY_SUMMARY, batchAt('http://127.0.0.1:8080/agent.html', 'http://127.0.0.1:8080', forged))
    expect(s).toMatchObject({ pageUrl: 'http://127.0.0.1:8080/agent.html', pageOrigin: 'http://127.0.0.1:8080' })
    // A subframe names neither, whatever its origin.
    expect(summarise(s, batchAt('https://ads.example/x', 'https://ads.example', forged, 2))).toMatchObject({ pageOrigin: 'http://127.0.0.1:8080' })
    // A sandboxed top page: its origin is opaque, as the browser says, though its URL is not.
    const sandboxed = summarise(EMPTY_SUMMARY, batchAt('http://127.0.0.1:8080/sandboxed', 'null', forged))
    expect(sandboxed).toMatchObject({ pageUrl: 'http://127.0.0.1:8080/sandboxed', pageOrigin: 'null' })
    expect(checkTabSummaryOk(sandboxed)).toBe(true)
  })

  it(`lists at most ${MAX_SUMMARY_AGENTS} agents`, () => {
    const many = Array.from({ length: MAX_SUMMARY_AGENTS + 5 }, (_, i) => agent(`hook:${i}`))
    expect(summarise(EMPTY_SUMMARY, tabBatch(many)).agents).toHaveLength(MAX_SUMMARY_AGENTS)
  })

  it('shows as a title and a badge', () => {
    const one: TabSummary = { ...EMPTY_SUMMARY, agents: [{ id: 'hook:1', label: 'a', kind: 'hook' }], reminders: 1 }
    expect(titleOf(EMPTY_SUMMARY)).toBe('Repeat Tool Guard: no agent seen on this page')
    expect(titleOf(one)).toBe('Repeat Tool Guard: 1 agent, 1 reminder fired')
    expect([badgeOf(EMPTY_SUMMARY), badgeOf(one), badgeOf({ ...one, reminders: 12_345 })]).toEqual(['', '1', '9999+'])
  })

  it('sets a grey icon for no agent and the coloured one after, and survives a closed tab', async () => {
    const icons: string[] = []
    const action: ToolbarAction = {
      setIcon: async ({ path }) => void icons.push(path['16']!),
      setBadgeText: async () => {},
      setBadgeBackgroundColor: async () => {},
      setTitle: async () => Promise.reject(new Error('No tab with id: 7')),
    }
    await showOnToolbar(action, 7, EMPTY_SUMMARY)
    await showOnToolbar(action, 7, { ...EMPTY_SUMMARY, agents: [{ id: 'hook:1', label: 'a', kind: 'hook' }] })
    expect(icons).toEqual(['icons/icon-16-grey.png', 'icons/icon-16.png'])
  })
})

describe("the popup's messages", () => {
  const origin = 'chrome-extension://abc/'
  const summaries = createTabSummaries({ storage: memoryStorage(), show: () => {} })

  it('are answered for the extension’s popup only, and checked both ways', async () => {
    const ask = { v, kind: 'tab-summary', tabId: 3 }
    const woken: number[] = []
    const wake = (tabId: number) => void woken.push(tabId)
    const reply = await answerPopup(ask, { url: `${origin}popup.html?tabId=3` }, origin, summaries, wake)
    expect(checkBackgroundToPopup(reply)).toEqual({ ok: true, value: { v, kind: 'tab-summary', tabId: 3, summary: EMPTY_SUMMARY } })
    // A tab that never answers (a browser page) is asked once and the popup still gets its reply.
    expect(woken).toEqual([3])
    expect(answerPopup(ask, { url: `${origin}panel.html` }, origin, summaries, wake)).toBeUndefined()
    expect(answerPopup(ask, { url: 'https://evil.example/popup.html' }, origin, summaries, wake)).toBeUndefined()
    expect(answerPopup({ ...ask, tabId: -1 }, { url: `${origin}popup.html` }, origin, summaries, wake)).toBeUndefined()
    expect(checkPopupToBackground({ ...ask, extra: 1 })).toMatchObject({ ok: false, reason: 'shape' })
    expect(woken).toEqual([3])
    expect(checkBackgroundToPopup({ v, kind: 'tab-summary', tabId: 3, summary: { ...EMPTY_SUMMARY, pageUrl: 'x'.repeat(3_000) } })).toMatchObject({ ok: false, reason: 'size' })
  })

  it('wake a silent page and answer with the load it reports', async () => {
    const woken = createTabSummaries({ storage: memoryStorage(), show: () => {} })
    const ask = { v, kind: 'tab-summary', tabId: 7 }
    const wake = (tabId: number) => woken.record(tabId, tabBatch([{ type: 'page-load', at: 1, url: 'https://agent.test/app' }]))
    const reply = await answerPopup(ask, { url: `${origin}popup.html` }, origin, woken, wake)
    expect(reply?.summary).toMatchObject({ pageUrl: 'http://127.0.0.1/agent.html', pageOrigin: 'http://127.0.0.1' })
  })

  it('start a tab over when it loads a new page, whatever the old page reported', async () => {
    const tabs = createTabSummaries({ storage: memoryStorage(), show: () => {} })
    tabs.record(8, tabBatch([agent('hook:1'), reminder]))
    tabs.restart(8)
    expect(await tabs.get(8)).toEqual(EMPTY_SUMMARY)
  })
})
