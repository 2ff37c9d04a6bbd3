// The panel, opened as a tab for a served page, with the built extension loaded in Chromium.
import { resolve } from 'node:path'
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { RECOMMENDED_CONFIG, resolveConfig, type GuardConfig } from '../../../engine/index.ts'
import { exportSession } from '../support/panel-export.ts'
import { useStage } from '../support/stage.ts'
import { engineError } from '../../support/engine-error.ts'

declare global {
  interface Window {
    callTool(agent: string, tool: string, args: unknown): Promise<string[]>
    received: string[]
    forge(): number
    markup(): Promise<void>
    __REPEAT_TOOL_GUARD__: { readonly config: GuardConfig }
    panelMarker?: string
    connectionStates?: string[]
  }
}

const stage = useStage({ folder: resolve(import.meta.dirname, 'pages') })

async function calls(page: Page, agent: string, tool: string, args: unknown, times: number): Promise<string[]> {
  const texts: string[] = []
  for (let i = 0; i < times; i++) texts.push(...(await page.evaluate(([a, t, x]) => window.callTool(a as string, t as string, x), [agent, tool, args])))
  return texts
}

const labels = (panel: Page) => panel.getByTestId('agent-label').allTextContents()
const texts = (panel: Page, testId: string) => panel.getByTestId(testId).allTextContents()


describe('the live panel', () => {
  it('shows the tab’s agent, its run and both reminders as the page got them, and nothing of another tab', async () => {
    const a = await stage.open('agent.html?tab=a')
    const b = await stage.open('agent.html?tab=b')
    const received = await calls(a.page, 'alpha', 'grep', { q: 'loop' }, 5)
    await calls(b.page, 'bravo', 'read', { f: 1 }, 3)
    expect(received).toHaveLength(2)

    const panel = await stage.browser.openPanel(a.tabId)
    await expect.poll(() => labels(panel)).toEqual(['alpha'])
    await expect.poll(() => panel.getByTestId('agent-count').textContent()).toBe('5')
    await expect.poll(() => texts(panel, 'reminder-text')).toEqual(received)
    expect(received[1]).toContain('- consecutive_calls: 5')

    // live: the next calls of both tabs arrive; only this tab's show
    await calls(b.page, 'bravo', 'read', { f: 1 }, 2)
    await calls(a.page, 'alpha', 'grep', { q: 'loop' }, 1)
    await expect.poll(() => panel.getByTestId('agent-count').textContent()).toBe('6')
    expect(await labels(panel)).toEqual(['alpha'])
    expect(await panel.getByText('bravo').count()).toBe(0)
    expect(await texts(panel, 'call-tool')).toEqual(Array(6).fill('grep'))
  })

  it('tells how to get an agent on screen for a page without one, next to its page-load row', async () => {
    const { tabId } = await stage.open('plain.html')
    const panel = await stage.browser.openPanel(tabId)
    // The page's load is recorded as a row, so the timeline is not empty: the guidance shows anyway.
    await expect.poll(() => panel.locator('[data-testid=timeline-row][data-kind=page-load]').count()).toBe(1)
    expect(await panel.getByTestId('no-agent-yet').isVisible()).toBe(true)
    expect(await panel.locator('[data-testid=timeline-row]').isVisible()).toBe(true)
    expect(await panel.getByTestId('no-agent-yet').textContent()).toContain('No agent seen on this page yet.')
    expect(await panel.getByTestId('agent-label').count()).toBe(0)
  })

  it('changes what the page gets next when the thresholds change, and saves nothing invalid', async () => {
    const { page, tabId } = await stage.open('agent.html?tab=config')
    const panel = await stage.browser.openPanel(tabId)
    await calls(page, 'carol', 'ls', '/', 1)
    await panel.getByTestId('tab-config').click()
    await expect.poll(() => panel.getByTestId('config-in-force-thresholds').textContent()).toBe('3, 5, 8')
    const stored = async () => ((await (await stage.browser.worker()).evaluate(() => chrome.storage.local.get('config'))) as { config?: unknown }).config
    try {
      await panel.getByTestId('config-input').fill(JSON.stringify({ thresholds: [4, 2], exclude: ['todo_write'] }))
      await panel.getByTestId('config-apply').click()
      await expect.poll(() => page.evaluate(() => window.__REPEAT_TOOL_GUARD__.config.thresholds)).toEqual([2, 4])
      await expect.poll(() => panel.getByTestId('config-in-force-thresholds').textContent()).toBe('2, 4')
      // the run of `ls` is at 1: the very next identical call is now the second, and reminded
      expect(await calls(page, 'carol', 'ls', '/', 1)).toHaveLength(1)

      await panel.getByTestId('config-input').fill('{"thresholds": [1]}')
      expect(await panel.getByTestId('config-error').textContent()).toBe(engineError({ thresholds: [1] }))
      expect(await panel.getByTestId('config-apply').isDisabled()).toBe(true)
      await panel.getByTestId('config-input').press('Control+Enter')
      expect(await stored()).toEqual(resolveConfig({ thresholds: [2, 4], exclude: ['todo_write'] }))
      expect(await page.evaluate(() => window.__REPEAT_TOOL_GUARD__.config.thresholds)).toEqual([2, 4])
    } finally {
      await (await stage.browser.worker()).evaluate((config) => chrome.storage.local.set({ config }), RECOMMENDED_CONFIG)
    }
    await expect.poll(() => page.evaluate(() => window.__REPEAT_TOOL_GUARD__.config.thresholds)).toEqual([3, 5, 8])
  })

  it('renders a hostile page’s markup as text, and its forged messages reach nothing', async () => {
    const quiet = await stage.open('agent.html?tab=quiet')
    await calls(quiet.page, 'quiet', 'grep', 1, 1)
    const quietPanel = await stage.browser.openPanel(quiet.tabId)
    const { page, tabId } = await stage.open('hostile.html')
    const panel = await stage.browser.openPanel(tabId)
    await page.evaluate(() => window.markup())
    expect(await page.evaluate(() => window.forge())).toBeGreaterThan(0)

    await expect.poll(() => texts(panel, 'call-tool')).toEqual(Array(3).fill('<b>bold</b><script>document.title="pwned"</script>'))
    expect(await texts(panel, 'agent-label')).toEqual(['<img src=x onerror="document.title=\'pwned\'">'])
    expect(await panel.locator('[data-testid=timeline] b, [data-testid=timeline] script, [data-testid=agent-list] img').count()).toBe(0)
    // The markup's scripts set document.title: the panel's own title is untouched.
    expect(await panel.title()).toBe('Repeat Tool Guard')

    // nothing reached the other tab's panel, and the extension still works for the hostile tab
    expect(await quietPanel.getByTestId('drops').count()).toBe(0)
    expect(await texts(quietPanel, 'agent-label')).toEqual(['quiet'])
    await page.evaluate(() => window.markup())
    await expect.poll(() => panel.getByTestId('agent-count').textContent()).toBe('6')
    // The forgeries went before these calls: had they reached the extension, they would show by now.
    expect(await panel.getByTestId('drops').count()).toBe(0)
  })

  it('exports a session that imports back exactly', async () => {
    const { page, tabId } = await stage.open('agent.html?tab=export')
    await calls(page, 'exporter', 'grep', { q: 'e' }, 5)
    await calls(page, 'exporter', 'read', { f: 'x' }, 1)
    const panel = await stage.browser.openPanel(tabId)
    await expect.poll(() => texts(panel, 'reminder-text')).toHaveLength(2)
    const exported = await exportSession(panel, 'with-arguments')
    expect(JSON.parse(exported)).toMatchObject({ format: 'repeat-tool-guard/session', version: 1 })

    // an empty panel (a tab that never had an agent) takes the file
    const viewer = await stage.browser.openPanel(2_000_000_000)
    await viewer.getByTestId('import-input').setInputFiles({ name: 'session.json', mimeType: 'application/json', buffer: Buffer.from(exported) })
    await expect.poll(() => labels(viewer)).toEqual(['exporter'])
    expect(await texts(viewer, 'reminder-text')).toEqual(await texts(panel, 'reminder-text'))
    expect(await exportSession(viewer, 'with-arguments')).toBe(exported)
  })
})

describe('a long live timeline', () => {
  /** `n` calls by one agent, in runs of four identical ones (each run fires a gentle reminder). */
  const burst = (page: Page, from: number, n: number) =>
    page.evaluate(
      async ([from, n]) => {
        for (let i = from; i < from + n; i++) await window.callTool('looper', 'grep', { q: `term ${Math.floor(i / 4)}` })
      },
      [from, n],
    )

  /** What the timeline shows: its scroll box, and each drawn row's box, relative to the list's top. */
  const geometry = (panel: Page) =>
    panel.getByTestId('timeline').evaluate((list) => {
      const top = list.getBoundingClientRect().top
      const rows = [...list.querySelectorAll<HTMLElement>('.rtg-vrow')].map((row) => {
        const box = row.getBoundingClientRect()
        const seq = row.querySelector('.rtg-seq')?.textContent
        return { seq: seq ? Number(seq.slice(1)) : null, top: box.top - top, bottom: box.bottom - top, height: box.height }
      })
      return { scrollTop: list.scrollTop, clientHeight: list.clientHeight, scrollHeight: list.scrollHeight, rows }
    })
  type Geometry = Awaited<ReturnType<typeof geometry>>

  const newestCall = async (panel: Page) => Math.max(0, ...(await geometry(panel)).rows.map((row) => row.seq ?? 0))
  /** Drawn rows sit edge to edge: the heights the list assumed are the heights they have. */
  function expectStacked({ rows }: Geometry): void {
    for (let i = 1; i < rows.length; i++) expect(Math.abs(rows[i]!.top - rows[i - 1]!.bottom)).toBeLessThan(1)
  }
  /** Scrolled to the end, with the last row's bottom on the list's bottom edge. */
  function expectAtEnd(g: Geometry): void {
    expect(g.scrollTop + g.clientHeight).toBeGreaterThanOrEqual(g.scrollHeight - 1)
    expect(Math.abs(g.rows.at(-1)!.bottom - g.clientHeight)).toBeLessThan(1)
  }

  it('follows the newest row, holds a reader who scrolled up in place, and draws rows at their real heights', async () => {
    const { page, tabId } = await stage.open('agent.html?tab=long')
    const panel = await stage.browser.openPanel(tabId)
    await burst(page, 0, 2_000)
    await expect.poll(() => newestCall(panel)).toBe(2_000)
    let g = await geometry(panel)
    // 2,000 calls, 500 reminders and 499 resets recorded; a screenful (and a little more) drawn
    expect(g.rows.length).toBeGreaterThan(5)
    expect(g.rows.length).toBeLessThan(60)
    expect(g.rows.some((row) => row.height > 40), 'a reminder row, taller than one line, is in view').toBe(true)
    expectStacked(g)
    expectAtEnd(g)

    // scrolled up to read: new calls arrive below and the rows read stay where they are
    await panel.getByTestId('timeline').evaluate((list) => list.scrollTo(0, list.scrollHeight / 2))
    await expect.poll(async () => (await geometry(panel)).rows[0]!.top).toBeLessThanOrEqual(0)
    const before = await geometry(panel)
    const anchor = before.rows.find((row) => row.seq !== null && row.top >= 0)!
    await burst(page, 2_000, 300)
    await expect.poll(() => panel.getByTestId('status-bar').textContent()).toContain('2,300 calls')
    g = await geometry(panel)
    expect(g.scrollTop).toBe(before.scrollTop)
    expect(g.rows.find((row) => row.seq === anchor.seq)?.top).toBeCloseTo(anchor.top, 0)
    expect(await newestCall(panel)).toBeLessThan(1_500)
    expectStacked(g)

    // back at the end, it follows again
    await panel.getByTestId('timeline').evaluate((list) => list.scrollTo(0, list.scrollHeight))
    await burst(page, 2_300, 50)
    await expect.poll(() => newestCall(panel)).toBe(2_350)
    expectAtEnd(await geometry(panel))

    // a call expanded to its arguments is measured; collapsed, it is one line again
    const last = panel.locator('[data-testid=timeline-row][data-kind=call]').last()
    await last.locator('.rtg-row-line').click()
    await expect.poll(() => panel.getByTestId('call-args').count()).toBe(1)
    g = await geometry(panel)
    expect(Math.max(...g.rows.map((row) => row.height))).toBeGreaterThan(40)
    expectStacked(g)
    expectAtEnd(g)
    await last.locator('.rtg-row-line').click()
    await expect.poll(() => panel.getByTestId('call-args').count()).toBe(0)
    g = await geometry(panel)
    expectStacked(g)
    expectAtEnd(g)
  })
})

describe('the panel’s layout', () => {
  it('puts the agents beside the timeline in a wide panel, and above it, at full width, in a narrow one', async () => {
    const { page, tabId } = await stage.open('agent.html?tab=layout')
    await calls(page, 'lay', 'grep', { q: 'x' }, 2)
    const panel = await stage.browser.openPanel(tabId)
    await expect.poll(() => labels(panel)).toEqual(['lay'])
    const boxes = async () => {
      const agents = (await panel.getByTestId('agent-list').boundingBox())!
      const timeline = (await panel.getByTestId('timeline').boundingBox())!
      return { agents, timeline }
    }

    await panel.setViewportSize({ width: 1200, height: 600 })
    let { agents, timeline } = await boxes()
    expect(agents.x + agents.width).toBeLessThanOrEqual(timeline.x + 1)
    expect(timeline.width).toBeGreaterThan(500)

    await panel.setViewportSize({ width: 560, height: 700 })
    const stacked = async () => {
      ;({ agents, timeline } = await boxes())
      return agents.y + agents.height <= timeline.y + 1
    }
    await expect.poll(stacked).toBe(true)
    expect(agents.width).toBeGreaterThan(540)
    expect(timeline.width).toBeGreaterThan(540)
    expect(timeline.height).toBeGreaterThan(200)
  })
})

describe('a stopped service worker', () => {
  it('leaves the panel whole: it reconnects and keeps recording without a reload', async () => {
    const { page, tabId } = await stage.open('agent.html?tab=sw')
    const panel = await stage.browser.openPanel(tabId)
    await calls(page, 'delta', 'grep', { q: 'sw' }, 3)
    await expect.poll(() => panel.getByTestId('agent-count').textContent()).toBe('3')
    await panel.evaluate(() => {
      window.panelMarker = 'the same document'
      const status = document.querySelector<HTMLElement>('[data-testid=connection]')!
      window.connectionStates = []
      new MutationObserver(() => window.connectionStates!.push(status.dataset.state!)).observe(status, { attributes: true })
    })

    await stage.browser.stopServiceWorker()
    await expect.poll(() => panel.evaluate(() => window.connectionStates)).toContain('reconnecting')
    await expect.poll(() => panel.getByTestId('connection').getAttribute('data-state')).toBe('live')
    const received = await calls(page, 'delta', 'grep', { q: 'sw' }, 2)
    expect(received).toHaveLength(1)

    await expect.poll(() => panel.getByTestId('agent-count').textContent()).toBe('5')
    await expect.poll(() => texts(panel, 'call-tool')).toEqual(Array(5).fill('grep'))
    expect(await texts(panel, 'reminder-text')).toHaveLength(2)
    expect(await labels(panel)).toEqual(['delta'])
    expect(await panel.evaluate(() => window.panelMarker)).toBe('the same document')

    // a panel opened after the restart is whole too: the page re-sent its state
    const late = await stage.browser.openPanel(tabId)
    await expect.poll(() => labels(late)).toEqual(['delta'])
    await expect.poll(() => late.getByTestId('agent-count').textContent()).toBe('5')
  })
})

