import { describe, expect, it } from 'vitest'
import { RECOMMENDED_CONFIG } from '../../../../engine/index.ts'
import { createDropReport } from '../../../../extension/src/protocol/drop-counts.ts'
import { readPageMessage } from '../../../../extension/src/content/page-inbox.ts'
import { readStoredConfig } from '../../../../extension/src/content/stored-config.ts'
import { LIMITS } from '../../../../extension/src/protocol/events.ts'
import { CONTENT_SOURCE, PAGE_SOURCE, type DropCounts } from '../../../../extension/src/protocol/messages.ts'
import { FakeClock } from '../support/fake-clock.ts'
import { call, pageBatch, v } from '../support/samples.ts'

describe('readPageMessage', () => {
  it('passes our page script batches through', () => {
    expect(readPageMessage(pageBatch([call()]))).toEqual({ kind: 'events', events: [call()] })
  })

  it("passes the page script's drop report through", () => {
    const report = { source: PAGE_SOURCE, v, kind: 'drops', drops: { version: 1 } }
    expect(readPageMessage(report)).toEqual({ kind: 'drops', drops: { version: 1 } })
    expect(readPageMessage({ ...report, drops: { version: 'one' } })).toEqual({ kind: 'drop', reason: 'shape' })
  })

  it('counts everything else on the channel, by reason: only the page script holds its other end', () => {
    for (const data of ['hello', null, 42]) expect(readPageMessage(data)).toEqual({ kind: 'drop', reason: 'shape' })
    expect(readPageMessage({ type: 'webpackOk' })).toEqual({ kind: 'drop', reason: 'source' })
    expect(readPageMessage({ ...pageBatch(), source: CONTENT_SOURCE })).toEqual({ kind: 'drop', reason: 'source' })
    expect(readPageMessage({ ...pageBatch(), v: v + 1 })).toEqual({ kind: 'drop', reason: 'version' })
    expect(readPageMessage(pageBatch([{ ...call(), tool: 'x'.repeat(LIMITS.toolName + 1) }]))).toEqual({ kind: 'drop', reason: 'size' })
    expect(readPageMessage(pageBatch([{ ...call(), count: 'many' } as never]))).toEqual({ kind: 'drop', reason: 'shape' })
  })
})

describe('createDropReport', () => {
  it('reports what was counted since the last report, once per interval', () => {
    const clock = new FakeClock()
    const reports: DropCounts[] = []
    const drops = createDropReport({ report: (d) => void reports.push(d), later: clock.later })
    drops.count('shape')
    drops.count('shape')
    drops.count('size')
    expect(reports).toEqual([])
    clock.advance(250)
    drops.count('source')
    clock.advance(250)
    clock.advance(1_000)
    expect(reports).toEqual([{ shape: 2, size: 1 }, { source: 1 }])
  })

  it('adds the counts another hop reported to its own, skipping empty ones and saturating', () => {
    const clock = new FakeClock()
    const reports: DropCounts[] = []
    const drops = createDropReport({ report: (d) => void reports.push(d), later: clock.later })
    drops.add({ shape: 0, size: undefined })
    clock.advance(250)
    expect(reports).toEqual([])
    drops.count('source')
    drops.add({ source: 2, version: 3 })
    drops.add({ size: Number.MAX_SAFE_INTEGER })
    drops.add({ size: Number.MAX_SAFE_INTEGER })
    clock.advance(250)
    expect(reports).toEqual([{ source: 3, version: 3, size: Number.MAX_SAFE_INTEGER }])
  })
})

describe('readStoredConfig', () => {
  it('reads nothing stored as the recommended config, and fills missing keys from it', () => {
    expect(readStoredConfig(undefined)).toEqual({ ok: true, config: RECOMMENDED_CONFIG })
    expect(readStoredConfig({ thresholds: [4, 2] })).toEqual({ ok: true, config: { ...RECOMMENDED_CONFIG, thresholds: [2, 4] } })
  })

  it("refuses a bad value with the engine's own message", () => {
    expect(readStoredConfig({ thresholds: [1] })).toEqual({ ok: false, error: 'thresholds[0] must be an integer >= 2, got 1' })
    expect(readStoredConfig({ threshold: [3] })).toMatchObject({ ok: false, error: expect.stringContaining('threshold is not a config key') })
    expect(readStoredConfig('3,5,8')).toMatchObject({ ok: false })
  })
})
