import { beforeEach, describe, expect, it } from 'vitest'
import { createRouter, type Router } from '../../../../extension/src/background/router.ts'
import { CONTENT_PORT, PANEL_PORT } from '../../../../extension/src/protocol/messages.ts'
import { checkBackgroundToPanel } from '../../../../extension/src/protocol/validate.ts'
import { FakeClock } from '../support/fake-clock.ts'
import { FakeContentPort, FakePort } from '../support/fake-port.ts'
import { call, v } from '../support/samples.ts'

const ORIGIN = 'chrome-extension://abcdefghijklmnop/'
const PAGE_URL = 'http://127.0.0.1/agent.html'
const PAGE_ORIGIN = 'http://127.0.0.1'

let clock: FakeClock
let router: Router

const content = (tabId: number, frameId = 0, sender: { origin?: string; url?: string } = { origin: PAGE_ORIGIN, url: PAGE_URL }): FakeContentPort => {
  const port = new FakeContentPort(CONTENT_PORT, { tab: { id: tabId }, frameId, ...sender })
  router.connect(port)
  return port
}
const panel = (tabId?: number) => {
  const port = new FakePort(PANEL_PORT, { url: `${ORIGIN}panel.html?tabId=${tabId}` })
  router.connect(port)
  if (tabId !== undefined) port.receive({ v, kind: 'subscribe', tabId })
  return port
}
const events = (tool: string, url = PAGE_URL) => ({ v, kind: 'events', url, events: [call(tool)] })

beforeEach(() => {
  clock = new FakeClock()
  router = createRouter({ extensionOrigin: ORIGIN, later: clock.later, bufferLimits: { maxEvents: 3, maxBytes: 1e9 } })
})

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

  it('adds the relay drops to its own and reports the totals at most once per interval', () => {
    const p = panel(5)
    p.take()
    const page = content(5)
    page.report({ v, kind: 'drops', drops: { source: 2, size: 1 } })
    page.receive({ v: 99, kind: 'drops', drops: {} })
    page.receive('garbage')
    expect(p.take()).toEqual([])
    clock.advance(100)
    expect(p.take()).toEqual([{ v, kind: 'drops', tabId: 5, drops: { source: 2, size: 1, version: 1, shape: 1 } }])
    const late = panel(5)
    expect(late.take().map((m) => (m as { kind: string }).kind)).toEqual(['history', 'drops'])
  })

  it('keeps drop totals valid counts however large the reported ones are', () => {
    const page = content(5)
    page.report({ v, kind: 'drops', drops: { shape: Number.MAX_SAFE_INTEGER } })
    page.report({ v, kind: 'drops', drops: { shape: Number.MAX_SAFE_INTEGER, size: 0 } })
    clock.advance(100)
    const [, drops] = panel(5).take()
    expect(drops).toEqual({ v, kind: 'drops', tabId: 5, drops: { shape: Number.MAX_SAFE_INTEGER } })
    expect(checkBackgroundToPanel(drops)).toMatchObject({ ok: true })
  })

  it('accepts panel ports from its panel.html only, with any query, in DevTools or as a tab', () => {
    const accepted = [`${ORIGIN}panel.html`, `${ORIGIN}panel.html?tabId=5`, `${ORIGIN}panel.html?tabId=5&theme=dark#top`]
    const refused = [
      `${ORIGIN}devtools.html`,
      `${ORIGIN}other/panel.html`,
      `${ORIGIN}panel.html.js`,
      `${ORIGIN}panel.htmlx?tabId=5`,
      'chrome-extension://someotherextension/panel.html?tabId=5',
      `${PAGE_URL}?${ORIGIN}panel.html`,
      '',
    ]
    for (const url of [...accepted, ...refused]) {
      const port = new FakePort(PANEL_PORT, { url })
      router.connect(port)
      port.receive({ v, kind: 'subscribe', tabId: 5 })
      expect([url, port.disconnected, port.posted.length > 0]).toEqual([url, refused.includes(url), accepted.includes(url)])
    }
    const noUrl = new FakePort(PANEL_PORT, {})
    router.connect(noUrl)
    expect(noUrl.disconnected).toBe(true)
  })

  it('refuses panel ports from a content script even when its frame claims the panel, counting them for the tab', () => {
    const framed = new FakePort(PANEL_PORT, { tab: { id: 5 }, frameId: 3, url: `${PAGE_URL}#${ORIGIN}panel.html` })
    router.connect(framed)
    expect(framed.disconnected).toBe(true)
    clock.advance(100)
    expect(panel(5).take()).toEqual([expect.objectContaining({ kind: 'history' }), { v, kind: 'drops', tabId: 5, drops: { sender: 1 } }])
  })

  it('refuses panel ports from anything but its own pages, counting them for the tab', () => {
    const spy = new FakePort(PANEL_PORT, { tab: { id: 5 }, frameId: 0, url: PAGE_URL })
    router.connect(spy)
    expect(spy.disconnected).toBe(true)
    spy.receive({ v, kind: 'subscribe', tabId: 5 })
    expect(spy.posted).toEqual([])
    clock.advance(100)
    const p = panel(5)
    expect(p.take()).toEqual([expect.objectContaining({ kind: 'history' }), { v, kind: 'drops', tabId: 5, drops: { sender: 1 } }])
  })

  it('refuses content ports outside a tab and ports with unknown names', () => {
    const orphan = new FakePort(CONTENT_PORT, { url: `${ORIGIN}panel.html` })
    router.connect(orphan)
    const stranger = new FakePort('someone-else', { tab: { id: 1 }, url: PAGE_URL })
    router.connect(stranger)
    expect([orphan.disconnected, stranger.disconnected]).toEqual([true, true])
  })

  it('accepts a panel opened as an ordinary tab (an extension page with a tab)', () => {
    const tabbed = new FakePort(PANEL_PORT, { tab: { id: 9 }, url: `${ORIGIN}panel.html?tabId=5` })
    router.connect(tabbed)
    tabbed.receive({ v, kind: 'subscribe', tabId: 5 })
    expect(tabbed.disconnected).toBe(false)
    expect(tabbed.take()).toEqual([{ v, kind: 'history', tabId: 5, batches: [], truncated: false }])
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
    router = createRouter({ extensionOrigin: ORIGIN, later: clock.later, bufferLimits: { maxEvents: 3, maxBytes: 1e9 }, wake: (tabId, message) => void woken.push([tabId, message]) })
    panel(8)
    expect(woken).toEqual([[8, { v, kind: 'resync' }]])
    const page = content(8)
    page.report(events('a'))
    panel(8)
    expect(woken).toHaveLength(1)
    for (const tool of ['b', 'c', 'd']) page.report(events(tool))
    panel(8)
    expect(woken).toEqual([[8, { v, kind: 'resync' }], [8, { v, kind: 'resync' }]])
  })

  it('moves a panel that subscribes again to the new tab', () => {
    const p = panel(5)
    p.receive({ v, kind: 'subscribe', tabId: 6 })
    p.take()
    content(5).report(events('five'))
    content(6).report(events('six'))
    expect(p.take()).toEqual([expect.objectContaining({ kind: 'batch', tabId: 6 })])
  })

  it('counts malformed panel messages for the tab the panel names, and acts on none of them', () => {
    const p = new FakePort(PANEL_PORT, { url: `${ORIGIN}panel.html?tabId=5` })
    router.connect(p)
    p.receive({ v, kind: 'subscribe', tabId: '5' })
    p.receive({ v, kind: 'clear', tabId: 5 })
    p.receive({ v: v + 1, kind: 'subscribe', tabId: 5 })
    expect(p.posted).toEqual([])
    clock.advance(100)
    p.receive({ v, kind: 'subscribe', tabId: 5 })
    expect(p.take()).toEqual([
      { v, kind: 'history', tabId: 5, batches: [], truncated: false },
      { v, kind: 'drops', tabId: 5, drops: { shape: 2, version: 1 } },
    ])
  })

  it('counts malformed messages of a subscribed panel for the tab it watches', () => {
    const p = panel(5)
    p.receive({ v, kind: 'subscribe', tabId: 6, extra: true })
    clock.advance(100)
    expect(p.take()).toEqual([expect.objectContaining({ kind: 'history', tabId: 5 }), { v, kind: 'drops', tabId: 5, drops: { shape: 1 } }])
    // Still subscribed to tab 5: the malformed message moved it nowhere.
    content(5).report(events('five'))
    expect(p.take()).toEqual([expect.objectContaining({ kind: 'batch', tabId: 5 })])
  })

  it('cannot count malformed messages of a panel that names no tab, and stops sending to a closed panel', () => {
    const p = new FakePort(PANEL_PORT, { url: `${ORIGIN}panel.html` })
    router.connect(p)
    p.receive({ v, kind: 'clear', tabId: 5 })
    expect(p.posted).toEqual([])
    p.receive({ v, kind: 'subscribe', tabId: 5 })
    clock.advance(100)
    expect(p.take()).toEqual([{ v, kind: 'history', tabId: 5, batches: [], truncated: false }])
    p.close()
    content(5).report(events('after'))
    expect(p.posted).toEqual([])
  })

  it('keeps delivering to the other panels when one of them fails', () => {
    const broken = panel(5)
    const fine = panel(5)
    broken.failPosts = true
    fine.take()
    content(5).report(events('x'))
    expect(fine.take()).toHaveLength(1)
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

describe('the router with a relay that sends again what a closed port left', () => {
  const acks = (port: FakePort) => port.take().filter((m) => (m as { kind: string }).kind === 'ack')
  /** Lets the acknowledgements' promises settle, then fires the timer that sends them. */
  const settle = async () => {
    for (let i = 0; i < 10; i++) await Promise.resolve()
    clock.advance(0)
  }

  it('acknowledges a batch only once its summary is stored, one acknowledgement for a burst, in order', async () => {
    const stored: (() => void)[] = []
    router = createRouter({
      extensionOrigin: ORIGIN,
      later: clock.later,
      onBatch: () => new Promise<void>((done) => void stored.push(done)),
    })
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
    router = createRouter({ extensionOrigin: ORIGIN, later: clock.later, onBatch: (_, batch, from) => void counted.push([batch.events[0]!.type, from.seq]) })
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
