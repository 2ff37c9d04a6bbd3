import { beforeEach, describe, expect, it } from 'vitest'
import { LIMITS, type PanelEvent } from '../../../../extension/src/protocol/events.ts'
import { createBatcher, type Batcher } from '../../../../extension/src/page/batcher.ts'
import { checkPageToContent } from '../../../../extension/src/protocol/validate.ts'
import { FakeClock } from '../support/fake-clock.ts'
import { call, EVENTS, pageBatch } from '../support/samples.ts'

let clock: FakeClock
let sent: PanelEvent[][]
let batcher: Batcher

beforeEach(() => {
  clock = new FakeClock()
  sent = []
  batcher = createBatcher({ send: (events) => void sent.push(events), now: clock.now, microtask: clock.microtask, later: clock.later })
})

describe('the page batcher', () => {
  it('sends one batch per microtask burst, in order', () => {
    for (let i = 1; i <= 50; i++) batcher.push(call('grep', i))
    expect(sent).toEqual([])
    clock.drainMicrotasks()
    expect(sent).toHaveLength(1)
    expect(sent[0]!.map((e) => e.type === 'call' && e.count)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1))
  })

  it('sends at most once per frame while events keep coming', () => {
    batcher.push(call())
    clock.drainMicrotasks()
    clock.advance(5)
    batcher.push(call('a'))
    clock.drainMicrotasks()
    expect(sent).toHaveLength(1)
    clock.advance(10)
    batcher.push(call('b'))
    clock.advance(0)
    expect(sent).toHaveLength(1)
    clock.advance(1)
    expect(sent.map((b) => b.length)).toEqual([1, 2])
    clock.advance(100)
    batcher.push(call('c'))
    clock.drainMicrotasks()
    expect(sent.map((b) => b.length)).toEqual([1, 2, 1])
  })

  it('sends a full batch at once and never passes the count cap', () => {
    for (let i = 0; i < LIMITS.eventsPerBatch * 2 + 10; i++) batcher.push(EVENTS['page-load'])
    expect(sent.map((b) => b.length)).toEqual([LIMITS.eventsPerBatch, LIMITS.eventsPerBatch])
    clock.drainMicrotasks()
    expect(sent.map((b) => b.length)).toEqual([LIMITS.eventsPerBatch, LIMITS.eventsPerBatch, 10])
  })

  it('splits by bytes so that every batch passes the validator', () => {
    const big: PanelEvent = { ...EVENTS.reminder, text: 'r'.repeat(LIMITS.text) } as PanelEvent
    const count = Math.ceil((LIMITS.batchBytes * 2.5) / LIMITS.text)
    for (let i = 0; i < count; i++) batcher.push(big)
    clock.drainMicrotasks()
    expect(sent.length).toBe(3)
    expect(sent.flat()).toHaveLength(count)
    for (const events of sent) expect(checkPageToContent(pageBatch(events))).toMatchObject({ ok: true })
  })
})
