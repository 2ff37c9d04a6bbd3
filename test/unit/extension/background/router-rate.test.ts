import { describe, expect, it } from 'vitest'
import { createRouter } from '../../../../extension/src/background/router.ts'
import { createTabRate } from '../../../../extension/src/background/tab-rate.ts'
import { CONTENT_PORT, PANEL_PORT, type BackgroundToPanel } from '../../../../extension/src/protocol/messages.ts'
import { checkBackgroundToPanel } from '../../../../extension/src/protocol/validate.ts'
import { FakeClock } from '../support/fake-clock.ts'
import { FakeContentPort, FakePort } from '../support/fake-port.ts'
import { call, contentReport, v } from '../support/samples.ts'
import { ORIGIN, PAGE_URL } from './support/router-stage.ts'

const LIMITS = { eventsPerSecond: 100, burstEvents: 200, bytesPerSecond: 1e9, burstBytes: 1e9 }

function setup() {
  const clock = new FakeClock()
  const router = createRouter({ extensionOrigin: ORIGIN, later: clock.later, now: clock.now, rateLimits: LIMITS, bufferLimits: { maxEvents: 1e6, maxBytes: 1e12 } })
  const content = (tabId: number) => {
    const port = new FakeContentPort(CONTENT_PORT, { tab: { id: tabId }, frameId: 0, url: PAGE_URL })
    router.connect(port)
    return port
  }
  const panel = (tabId: number) => {
    const port = new FakePort(PANEL_PORT, { url: `${ORIGIN}panel.html?tabId=${tabId}` })
    router.connect(port)
    port.receive({ v, kind: 'subscribe', tabId })
    return port
  }
  return { clock, content, panel }
}

const batchOf = (tool: string, n: number) =>
  contentReport(
    Array.from({ length: n }, (_, i) => call(tool, i + 1)),
    PAGE_URL,
  )

/** Every call tool name a panel received, in order, each message checked as the panel checks it. */
function toolsSeen(port: FakePort): string[] {
  return port.posted.flatMap((message) => {
    const checked = checkBackgroundToPanel(message)
    if (!checked.ok) throw new Error(checked.detail)
    const m: BackgroundToPanel = checked.value
    const batches = m.kind === 'batch' ? [m.batch] : m.kind === 'history' ? m.batches : []
    return batches.flatMap((b) => b.events.flatMap((e) => (e.type === 'call' ? [e.tool] : [])))
  })
}

/** The last drop totals a panel received, checked as the panel checks them (`rate` is a valid reason). */
function dropsOf(port: FakePort): { drops: Record<string, number> } | undefined {
  const last = port.posted.filter((m) => (m as { kind: string }).kind === 'drops').at(-1)
  if (last !== undefined) expect(checkBackgroundToPanel(last)).toMatchObject({ ok: true })
  return last as { drops: Record<string, number> } | undefined
}

describe('the router’s rate limit per tab', () => {
  it('drops and counts a flooding tab’s excess while another tab’s events all reach its panel', () => {
    const { clock, content, panel } = setup()
    const floodPanel = panel(5)
    const quietPanel = panel(6)
    const flood = content(5)
    const quiet = content(6)
    const sent: string[] = []
    for (let i = 0; i < 40; i++) {
      flood.report(batchOf('flood', 50))
      const tool = `quiet-${i}`
      quiet.report(batchOf(tool, 2))
      sent.push(tool, tool)
      clock.advance(10)
    }
    // 40 batches of 50 events in 0.4 s against 200 + 100/s: about 4 + 0.4 * 2 batches pass.
    const passed = toolsSeen(floodPanel).length
    expect(passed).toBeGreaterThanOrEqual(200)
    expect(passed).toBeLessThanOrEqual(300)
    expect(toolsSeen(quietPanel)).toEqual(sent)
    clock.advance(100)
    expect(dropsOf(floodPanel)?.drops).toEqual({ rate: 40 - passed / 50 })
    expect(dropsOf(quietPanel)).toBeUndefined()
  })

  it('lets a tab send again once its budget has refilled', () => {
    const { clock, content, panel } = setup()
    const p = panel(5)
    const page = content(5)
    page.report(batchOf('a', 200))
    page.report(batchOf('b', 1))
    expect(toolsSeen(p)).toHaveLength(200)
    clock.advance(1_000)
    page.report(batchOf('c', 100))
    expect(toolsSeen(p).slice(200)).toEqual(Array(100).fill('c'))
  })
})

describe('a tab’s rate', () => {
  it('admits up to the burst, refills with time, and is bounded by bytes too', () => {
    const rate = createTabRate({ eventsPerSecond: 10, burstEvents: 20, bytesPerSecond: 100, burstBytes: 1_000 })
    expect(rate.admit(20, 10, 0)).toBe(true)
    expect(rate.admit(1, 10, 0)).toBe(false)
    expect(rate.admit(5, 10, 500)).toBe(true)
    expect(rate.admit(1, 10, 500)).toBe(false)
    // a clock that goes back refills nothing
    expect(rate.admit(1, 10, 100)).toBe(false)
    expect(rate.admit(10, 2_000, 10_000)).toBe(false)
    expect(rate.admit(10, 1_000, 10_000)).toBe(true)
  })
})
