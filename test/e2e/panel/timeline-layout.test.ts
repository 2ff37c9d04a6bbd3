// The panel's timeline under a long live run, and its layout wide and narrow, opened as a tab for
// a served page with the built extension loaded in Chromium.
import { resolve } from 'node:path'
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { useStage } from '../support/stage.ts'
import { calls, labels } from './live-page.ts'

const stage = useStage({ folder: resolve(import.meta.dirname, 'pages') })

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
    expect(
      g.rows.some((row) => row.height > 40),
      'a reminder row, taller than one line, is in view',
    ).toBe(true)
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

  it('keeps an agent’s label readable beside its badges, the tab’s waste whole and a block on one line in a narrow panel', async () => {
    const { page, tabId } = await stage.open('agent.html?tab=badges')
    const panel = await stage.browser.openPanel(tabId)
    await panel.getByTestId('tab-config').click()
    await panel.getByTestId('config-input').fill(JSON.stringify({ similar: { threshold: 0.6, minCalls: 3 }, stopAfter: 2 }))
    await panel.getByTestId('config-apply').click()
    await expect.poll(() => page.evaluate(() => window.__REPEAT_TOOL_GUARD__.config.stopAfter)).toBe(2)
    for (const q of ['configure auth', 'configure the auth', 'configure auth now', 'configure auth today']) await calls(page, 'research assistant', 'search', { q }, 1)
    // A run of two, then the call stopAfter refuses: a block row, with the agent's long label.
    const blocked = await page.evaluate(async () => {
      const guard = window.__REPEAT_TOOL_GUARD__ as unknown as { preExecute(exec: unknown): { kind: string }; postExecute(exec: unknown, result: unknown): Promise<unknown> }
      const exec = { agent: { name: 'a research assistant with a long name that would wrap' }, name: 'read_file', arguments: { path: 'src/a-file-with-a-long-name.ts' } }
      for (let i = 0; i < 2; i++) await guard.postExecute(exec, { isError: false })
      return guard.preExecute(exec).kind
    })
    expect(blocked).toBe('block')
    await panel.getByTestId('tab-timeline').click()
    await expect.poll(() => panel.getByTestId('agent-waste-cost').count()).toBe(2)

    /**
     * The agent's row: its label's width and full width, the badges shown cut, and how far its
     * name cell's parts reach past where the current run begins.
     */
    const row = () =>
      panel
        .locator('[data-testid=agent-row][data-agent]')
        .first()
        .evaluate((agentRow) => {
          const label = agentRow.querySelector<HTMLElement>('[data-testid=agent-label]')!
          const badges = agentRow.querySelector<HTMLElement>('.rtg-agent-badges')!
          const shown = badges.getBoundingClientRect()
          const visible = [...badges.children].filter((badge) => badge.getBoundingClientRect().top < shown.bottom)
          // A badge shows whole, or not at all (wrapped onto the hidden second line): never a sliver.
          const cut = visible.filter((badge) => badge.scrollWidth > badge.clientWidth + 0.5 || badge.getBoundingClientRect().right > shown.right + 0.5).map((badge) => badge.textContent)
          const chainLeft = agentRow.querySelector('[data-testid=agent-chain]')!.getBoundingClientRect().left
          return { label: label.clientWidth, full: label.scrollWidth, cut, past: Math.max(label.getBoundingClientRect().right, shown.right) - chainLeft }
        })
    /** How far the tab's waste reaches past the status bar's right and bottom edges. */
    const wasteOutside = () =>
      panel.getByTestId('tab-waste').evaluate((waste) => {
        const box = waste.getBoundingClientRect()
        const bar = waste.parentElement!.getBoundingClientRect()
        return Math.max(box.right - bar.right, box.bottom - bar.bottom)
      })
    for (const width of [1200, 700, 420]) {
      await panel.setViewportSize({ width, height: 600 })
      await expect.poll(async () => (await row()).past, { message: `at ${width}px, nothing of the agent's name cell reaches into its current run` }).toBeLessThanOrEqual(0.5)
      const { label, full, cut } = await row()
      expect(label, `at ${width}px, the label is whole`).toBeGreaterThanOrEqual(full)
      expect(cut, `at ${width}px, no badge is cut`).toEqual([])
      // What the near-repeat reminder is about is whole; its placement and run cost give way first.
      const subject = await panel
        .locator('[data-testid=timeline-row][data-kind=reminder] .rtg-row-text')
        .first()
        .evaluate((text) => {
          // To the fraction of a pixel: that much less, and the ellipsis cuts whole letters.
          const range = document.createRange()
          range.selectNodeContents(text)
          return range.getBoundingClientRect().width - text.getBoundingClientRect().width
        })
      expect(subject, `at ${width}px, the reminder's subject is whole`).toBeLessThanOrEqual(0.01)
      expect(await wasteOutside(), `at ${width}px, the tab's waste is whole`).toBeLessThanOrEqual(0.5)
      // A one-line row's height is fixed: a line that wrapped would spill over the rows below it.
      const block = await panel.locator('[data-testid=timeline-row][data-kind=blocked]').evaluate((row) => ({ height: row.clientHeight, content: row.scrollHeight }))
      expect(block.content, `at ${width}px, the block is one line`).toBeLessThanOrEqual(block.height)
    }
  })
})
