// The router's ports and drops: which panel and content ports it accepts, and how the drops of a
// tab (its relay's, malformed or refused messages) are counted and reported.
import { describe, expect, it } from 'vitest'
import { CONTENT_PORT, PANEL_PORT } from '../../../../extension/src/protocol/messages.ts'
import { checkBackgroundToPanel } from '../../../../extension/src/protocol/validate.ts'
import { FakePort } from '../support/fake-port.ts'
import { v } from '../support/samples.ts'
import { clock, content, events, freshRouterEachTest, ORIGIN, PAGE_URL, panel, router } from './support/router-stage.ts'

freshRouterEachTest()

describe('the router', () => {
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
})
