// The router with a relay that sends again what a closed port left: acknowledged once stored, each
// batch handled once, and batches sent again to a fresh worker marked replayed.
import { describe, expect, it } from 'vitest'
import { createRouter } from '../../../../extension/src/background/router.ts'
import type { FakePort } from '../support/fake-port.ts'
import { call, v } from '../support/samples.ts'
import { clock, content, events, freshRouterEachTest, ORIGIN, PAGE_ORIGIN, PAGE_URL, panel, useRouter } from './support/router-stage.ts'

freshRouterEachTest()

describe('the router with a relay that sends again what a closed port left', () => {
  const acks = (port: FakePort) => port.take().filter((m) => (m as { kind: string }).kind === 'ack')
  /** Lets the acknowledgements' promises settle, then fires the timer that sends them. */
  const settle = async () => {
    for (let i = 0; i < 10; i++) await Promise.resolve()
    clock.advance(0)
  }

  it('acknowledges a batch only once its summary is stored, one acknowledgement for a burst, in order', async () => {
    const stored: (() => void)[] = []
    useRouter(
      createRouter({
        extensionOrigin: ORIGIN,
        later: clock.later,
        onBatch: () => new Promise<void>((done) => void stored.push(done)),
      }),
    )
    const page = content(5)
    page.report(events('a'))
    page.report(events('b'))
    page.report({ v, kind: 'drops', drops: { shape: 1 } })
    await settle()
    expect(acks(page)).toEqual([])
    stored[1]!()
    await settle()
    // `b` is stored, but `a` before it is not: nothing may be forgotten yet.
    expect(acks(page)).toEqual([])
    stored[0]!()
    await settle()
    expect(acks(page)).toEqual([{ v, kind: 'ack', seq: 3 }])
  })

  it('handles a message it already handled once: not buffered, passed on or counted again, but acknowledged', async () => {
    const counted: [string, number][] = []
    useRouter(createRouter({ extensionOrigin: ORIGIN, later: clock.later, onBatch: (_, batch, from) => void counted.push([batch.events[0]!.type, from.seq]) }))
    const p = panel(5)
    p.take()
    const page = content(5)
    page.report(events('a'))
    page.resend(events('a'), 1)
    page.report({ v, kind: 'drops', drops: { shape: 1 } })
    page.resend({ v, kind: 'drops', drops: { shape: 1 } }, 2)
    await settle()
    clock.advance(100)
    expect(p.take()).toEqual([
      { v, kind: 'batch', tabId: 5, batch: { frameId: 0, url: PAGE_URL, origin: PAGE_ORIGIN, events: [call('a')] } },
      { v, kind: 'drops', tabId: 5, drops: { shape: 1 } },
    ])
    expect(counted).toEqual([['call', 1]])
    expect(acks(page)).toEqual([{ v, kind: 'ack', seq: 2 }])
    const [history] = panel(5).take() as [{ batches: unknown[] }]
    expect(history.batches).toHaveLength(1)
  })

  it('passes on a batch sent again to a fresh worker as replayed, for the panel to skip what it has', () => {
    const p = panel(5)
    p.take()
    const page = content(5)
    page.resend(events('a'), 4)
    page.report(events('b'))
    expect(p.take()).toEqual([
      { v, kind: 'batch', tabId: 5, batch: { frameId: 0, url: PAGE_URL, origin: PAGE_ORIGIN, events: [call('a')] }, replayed: true },
      { v, kind: 'batch', tabId: 5, batch: { frameId: 0, url: PAGE_URL, origin: PAGE_ORIGIN, events: [call('b')] } },
    ])
  })

  it('tells the streams of two frames apart', () => {
    const p = panel(5)
    p.take()
    const top = content(5)
    const frame = content(5, 3)
    top.report(events('top'))
    frame.report(events('frame'))
    expect(p.take().map((m) => (m as { batch: { frameId: number } }).batch.frameId)).toEqual([0, 3])
  })
})
