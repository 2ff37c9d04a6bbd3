// The toolbar summaries the service worker keeps per tab (tab-summaries.ts): stored in session
// storage so a restarted worker goes on counting, counted once per relay message, and started over
// when the tab loads a new page.
import { describe, expect, it, vi } from 'vitest'
import { createTabSummaries, type SummaryStorage } from '../../../../extension/src/background/tab-summaries.ts'
import { EMPTY_SUMMARY } from '../../../../extension/src/background/tab-summary.ts'
import type { TabSummary } from '../../../../extension/src/protocol/messages.ts'
import { memoryStorage } from '../support/memory-storage.ts'
import { agentEvent as agent, reminderEvent as reminder, tabBatch } from '../support/samples.ts'

describe('the summaries a restarted worker reads back', () => {
  const flush = () => new Promise((done) => setTimeout(done, 0))

  it('go on from what was stored, refuse a corrupt entry, and are forgotten with the tab', async () => {
    const storage = memoryStorage()
    const shown: number[] = []
    const first = createTabSummaries({ storage, show: (_, s) => shown.push(s.reminders) })
    await first.record(4, tabBatch([agent('hook:1'), reminder]))
    const restarted = createTabSummaries({ storage, show: (_, s) => shown.push(s.reminders) })
    restarted.record(4, tabBatch([reminder]))
    expect((await restarted.get(4)).reminders).toBe(2)
    expect(shown).toEqual([1, 2])
    storage.items.set('tab-summary:5', { ...EMPTY_SUMMARY, reminders: -1 })
    expect(await restarted.get(5)).toEqual(EMPTY_SUMMARY)
    restarted.remove(4)
    await flush()
    expect(storage.items.has('tab-summary:4')).toBe(false)
  })
})

describe('the summaries a relay sends batches to again', () => {
  const from = (stream: string, seq: number) => ({ stream, seq })

  it('count once what the stopped worker had stored but not acknowledged, and go on counting after it', async () => {
    const storage = memoryStorage()
    const first = createTabSummaries({ storage, show: () => {} })
    await first.record(4, tabBatch([agent('hook:1'), reminder]), from('top', 1))
    await first.record(4, tabBatch([reminder]), from('top', 2))
    // A plain call changes nothing stored; the restarted worker may count it again harmlessly.
    await first.record(4, tabBatch(), from('top', 3))
    const restarted = createTabSummaries({ storage, show: () => {} })
    await restarted.record(4, tabBatch([reminder]), { ...from('top', 2), resent: true })
    await restarted.record(4, tabBatch(), { ...from('top', 3), resent: true })
    expect((await restarted.get(4)).reminders).toBe(2)
    await restarted.record(4, tabBatch([reminder]), from('top', 4))
    // Another frame's stream counts from its own start.
    await restarted.record(4, tabBatch([reminder], 2), from('frame', 1))
    expect((await restarted.get(4)).reminders).toBe(4)
  })

  it('settle once the summary a batch changed is stored', async () => {
    const storage = memoryStorage()
    const writes: (() => void)[] = []
    const slow: SummaryStorage = { ...storage, set: (items) => new Promise((done) => writes.push(() => void storage.set(items).then(done))) }
    const summaries = createTabSummaries({ storage: slow, show: () => {} })
    let settled = false
    const recorded = summaries.record(4, tabBatch([reminder]), from('top', 1)).then(() => void (settled = true))
    await vi.waitFor(() => expect(writes).toHaveLength(1))
    expect(settled).toBe(false)
    writes[0]!()
    await recorded
    expect(storage.items.get('tab-summary:4')).toMatchObject({ reminders: 1 })
  })

  it('leave a tab that saw nothing as it is when it loads a new page: nothing shown, nothing stored', async () => {
    const storage = memoryStorage()
    const writes: string[][] = []
    const counting: SummaryStorage = { ...storage, set: (items) => (writes.push(Object.keys(items)), storage.set(items)) }
    const shown: TabSummary[] = []
    const summaries = createTabSummaries({ storage: counting, show: (_, s) => shown.push(s) })
    summaries.restart(4)
    expect(await summaries.get(4)).toEqual(EMPTY_SUMMARY)
    expect([shown, writes]).toEqual([[], []])
    // A page with an agent is shown, and the next page starts over on the toolbar and in storage.
    await summaries.record(4, tabBatch([agent('hook:1')]), from('top', 1))
    summaries.restart(4)
    expect(await summaries.get(4)).toEqual(EMPTY_SUMMARY)
    expect(shown.map((s) => s.agents.length)).toEqual([1, 0])
    expect(storage.items.get('tab-summary:4')).toEqual(EMPTY_SUMMARY)
    expect(storage.items.get('tab-summary-streams:4')).toEqual([])
    // The page after that one saw nothing either.
    summaries.restart(4)
    await summaries.get(4)
    expect([shown.length, writes.length]).toEqual([2, 2])
  })

  it('start a tab over when a frame of its old page was counted, or its stored summary could not be read or was refused', async () => {
    const starts = async (storage: SummaryStorage, before?: (summaries: ReturnType<typeof createTabSummaries>) => Promise<void>) => {
      const shown: TabSummary[] = []
      const summaries = createTabSummaries({ storage, show: (_, s) => shown.push(s) })
      await before?.(summaries)
      summaries.restart(4)
      expect(await summaries.get(4)).toEqual(EMPTY_SUMMARY)
      return shown
    }
    // A frame's batch changes no summary, but its stream is counted: the new page starts with none.
    const counted = memoryStorage()
    expect(await starts(counted, (s) => s.record(4, tabBatch([], 2), from('frame', 1)))).toEqual([EMPTY_SUMMARY])
    expect(counted.items.get('tab-summary-streams:4')).toEqual([])
    const unreadable: SummaryStorage = { ...memoryStorage(), get: () => Promise.reject(new Error('storage unavailable')) }
    expect(await starts(unreadable)).toEqual([EMPTY_SUMMARY])
    const refused = memoryStorage()
    refused.items.set('tab-summary:4', { ...EMPTY_SUMMARY, reminders: -1 })
    expect(await starts(refused)).toEqual([EMPTY_SUMMARY])
    expect(refused.items.get('tab-summary:4')).toEqual(EMPTY_SUMMARY)
  })

  it('start a tab over again on its next page when storing the last start-over failed', async () => {
    const storage = memoryStorage()
    let failures = 0
    const failingOnce: SummaryStorage = { ...storage, set: (items) => (failures++ === 1 ? Promise.reject(new Error('quota')) : storage.set(items)) }
    const shown: TabSummary[] = []
    const summaries = createTabSummaries({ storage: failingOnce, show: (_, s) => shown.push(s) })
    await summaries.record(4, tabBatch([agent('hook:1')]), from('top', 1))
    // The start-over is shown, but its write fails: storage still holds the agent's page.
    summaries.restart(4)
    await summaries.get(4)
    expect(storage.items.get('tab-summary:4')).toMatchObject({ agents: [{ id: 'hook:1' }] })
    summaries.restart(4)
    await summaries.get(4)
    expect(storage.items.get('tab-summary:4')).toEqual(EMPTY_SUMMARY)
    expect(shown.map((s) => s.agents.length)).toEqual([1, 0, 0])
  })

  it('start a new page with no stream counted', async () => {
    const storage = memoryStorage()
    const summaries = createTabSummaries({ storage, show: () => {} })
    await summaries.record(4, tabBatch([reminder]), from('top', 1))
    summaries.restart(4)
    await summaries.record(4, tabBatch([reminder]), from('top', 1))
    expect((await summaries.get(4)).reminders).toBe(1)
    expect(storage.items.get('tab-summary-streams:4')).toEqual([['top', 1]])
  })
})
