// The router's routing by tab: what a subscriber gets of its tab's history and live batches, the
// origin each batch is tagged with, and a tab kept across navigations and forgotten once closed.
import { describe, expect, it } from 'vitest'
import { createRouter } from '../../../../extension/src/background/router.ts'
import { checkBackgroundToPanel } from '../../../../extension/src/protocol/validate.ts'
import { call, v } from '../support/samples.ts'
import { clock, content, events, freshRouterEachTest, ORIGIN, PAGE_ORIGIN, PAGE_URL, panel, router, useRouter } from './support/router-stage.ts'

freshRouterEachTest()

describe('the router', () => {
  it('sends a subscriber the history, then live batches tagged with the sending frame', () => {
    const page = content(5)
    page.report(events('first'))
    const p = panel(5)
    expect(p.take()).toEqual([{ v, kind: 'history', tabId: 5, batches: [{ frameId: 0, url: PAGE_URL, origin: PAGE_ORIGIN, events: [call('first')] }], truncated: false }])
    content(5, 7).report(events('framed', 'about:srcdoc'))
    expect(p.take()).toEqual([{ v, kind: 'batch', tabId: 5, batch: { frameId: 7, url: 'about:srcdoc', origin: PAGE_ORIGIN, events: [call('framed')] } }])
  })

  it("tags every batch with the origin the browser names for the sender, whatever the page's events say", () => {
    const p = panel(5)
    p.take()
    const forged = { v, kind: 'events', url: PAGE_URL, events: [{ type: 'page-load', at: 1, url: 'https://bank.example/accounts' }] }
    content(5, 0, { origin: 'http://127.0.0.1:8080', url: 'http://127.0.0.1:8080/agent.html' }).report(forged)
    content(5, 2, { origin: 'null', url: 'http://127.0.0.1:8080/sandboxed.html' }).report(forged)
    const batches = p.take().map((m) => (m as { batch: { frameId: number; origin: string } }).batch)
    expect(batches.map(({ frameId, origin }) => [frameId, origin])).toEqual([
      [0, 'http://127.0.0.1:8080'],
      [2, 'null'],
    ])
  })

  it("takes the origin from the sender's URL where the browser names none, and opaque where neither names one", () => {
    const p = panel(5)
    p.take()
    content(5, 0, { url: 'http://localhost:3000/chat?x=1' }).report(events('url'))
    content(5, 1, { url: 'file:///home/me/agent.html' }).report(events('file'))
    content(5, 2, { url: 'data:text/html,x' }).report(events('data'))
    content(5, 3, { origin: 'https://bank.example/accounts', url: PAGE_URL }).report(events('not-an-origin'))
    content(5, 4, {}).report(events('none'))
    const received = p.take()
    expect(received.map((m) => (m as { batch: { origin: string } }).batch.origin)).toEqual(['http://localhost:3000', 'file://', 'null', PAGE_ORIGIN, 'null'])
    for (const message of received) expect(checkBackgroundToPanel(message)).toMatchObject({ ok: true })
  })

  it("never sends one tab's events to another tab's panel", () => {
    const five = panel(5)
    const six = panel(6)
    content(5).report(events('five'))
    content(6).report(events('six'))
    // Each panel gets its own tab's batch and nothing else: the empty history it subscribed to, then the batch.
    const only = (tabId: number, tool: string) => [
      expect.objectContaining({ kind: 'history', tabId, batches: [] }),
      { v, kind: 'batch', tabId, batch: { frameId: 0, url: PAGE_URL, origin: PAGE_ORIGIN, events: [call(tool)] } },
    ]
    expect(five.take()).toEqual(only(5, 'five'))
    expect(six.take()).toEqual(only(6, 'six'))
  })

  it('takes the tab from the sender: a tab id in a message is a shape drop of the sending tab', () => {
    const six = panel(6)
    const five = panel(5)
    content(5).report({ ...events('spoof'), tabId: 6 })
    expect(six.take()).toEqual([expect.objectContaining({ kind: 'history' })])
    clock.advance(100)
    expect(five.take()).toEqual([expect.objectContaining({ kind: 'history' }), { v, kind: 'drops', tabId: 5, drops: { shape: 1 } }])
    expect(six.take()).toEqual([])
  })

  it('asks the pages for a snapshot when a subscriber gets a trimmed or empty history', () => {
    const page = content(5)
    panel(5)
    expect(page.take()).toEqual([{ v, kind: 'resync' }])
    page.report(events('a'))
    panel(5)
    expect(page.take()).toEqual([])
    for (const tool of ['b', 'c', 'd']) page.report(events(tool))
    const p = panel(5)
    expect(p.take()).toEqual([expect.objectContaining({ kind: 'history', truncated: true })])
    expect(page.take()).toEqual([{ v, kind: 'resync' }])
  })

  it('wakes the frames of a tab without a port when a subscriber gets an empty or trimmed history', () => {
    const woken: [number, unknown][] = []
    useRouter(createRouter({ extensionOrigin: ORIGIN, later: clock.later, bufferLimits: { maxEvents: 3, maxBytes: 1e9 }, wake: (tabId, message) => void woken.push([tabId, message]) }))
    panel(8)
    expect(woken).toEqual([[8, { v, kind: 'resync' }]])
    const page = content(8)
    page.report(events('a'))
    panel(8)
    expect(woken).toHaveLength(1)
    for (const tool of ['b', 'c', 'd']) page.report(events(tool))
    panel(8)
    expect(woken).toEqual([
      [8, { v, kind: 'resync' }],
      [8, { v, kind: 'resync' }],
    ])
  })

  it('moves a panel that subscribes again to the new tab', () => {
    const p = panel(5)
    p.receive({ v, kind: 'subscribe', tabId: 6 })
    p.take()
    content(5).report(events('five'))
    content(6).report(events('six'))
    expect(p.take()).toEqual([expect.objectContaining({ kind: 'batch', tabId: 6 })])
  })

  it('forgets a closed tab: its buffer, its drops and late messages', () => {
    const page = content(5)
    page.report(events('before'))
    page.report({ v, kind: 'drops', drops: { shape: 1 } })
    router.tabRemoved(5)
    page.report(events('late'))
    const p = panel(5)
    expect(p.take()).toEqual([{ v, kind: 'history', tabId: 5, batches: [], truncated: false }])
  })

  it('keeps a tab history across navigations (a new content port for the same tab)', () => {
    const first = content(5)
    first.report(events('old-page'))
    first.close()
    content(5).report(events('new-page'))
    const p = panel(5)
    const [history] = p.take() as [{ batches: { events: { tool: string }[] }[] }]
    expect(history.batches.map((b) => b.events[0]!.tool)).toEqual(['old-page', 'new-page'])
  })
})
