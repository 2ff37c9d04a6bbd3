// A hostile page forges the page script's messages. The page script talks to the relay over a
// channel of their own (docs/security.md, "The channel between the page script and the relay"), so
// nothing the page posts on the window reaches the extension, not even its drop count; nothing
// reaches another tab, and the extension keeps working.
import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import { LIMITS, PROTOCOL_VERSION, type PanelEvent } from '../../../extension/src/protocol/events.ts'
import { PAGE_SOURCE, PANEL_PORT } from '../../../extension/src/protocol/messages.ts'
import { useStage } from '../support/stage.ts'
import { FIXTURES_DIR, GENTLE_REMINDER, repeat, runAgent } from './fixture.ts'
import { tapPanelPort, type PanelTap } from './panel-tap.ts'

const HTML_TOOL = '<img src=x onerror="window.pwned=1">'

const stage = useStage({ folder: FIXTURES_DIR })
let hostile: Page
let victim: Page
let tapHostile: PanelTap
let tapVictim: PanelTap
let extensionPage: Page
let victimTab: number
let hostileTab: number

const calls = (events: PanelEvent[]) => events.flatMap((e) => (e.type === 'call' ? [e.tool] : []))

beforeAll(async () => {
  ;({ page: hostile, tabId: hostileTab } = await stage.open('agent.html?hostile'))
  ;({ page: victim, tabId: victimTab } = await stage.open('agent.html?victim'))
  extensionPage = await stage.browser.openPanel(victimTab)
  tapHostile = await tapPanelPort(extensionPage, hostileTab)
  tapVictim = await tapPanelPort(extensionPage, victimTab)
})

describe('a hostile page', () => {
  it('reaches nothing with its forgeries: no event, no drop', async () => {
    await hostile.evaluate(
      ({ source, v, victimTabId, maxEvents, hugeLength }) => {
        const call = (tool: string) => ({
          type: 'call',
          at: 1,
          agentId: 'hook:99',
          seq: 1,
          tool,
          args: '{}',
          argsLength: 2,
          tracked: true,
          denied: false,
          isError: false,
          count: 1,
          nextThreshold: 3,
        })
        const post = (message: unknown) => window.postMessage(message, '*')
        // shape: a call without its fields, events that are not a list, a smuggled tab id
        post({ source, v, kind: 'events', events: [{ type: 'call', agentId: 'hook:1' }] })
        post({ source, v, kind: 'events', events: 'everything' })
        post({ source, v, kind: 'events', tabId: victimTabId, events: [call('spoofed_tool')] })
        // size: one huge string, then more events than a batch may hold
        post({ source, v, kind: 'events', events: [{ type: 'fault', at: 1, message: 'x'.repeat(hugeLength) }] })
        post({ source, v, kind: 'events', events: Array.from({ length: maxEvents + 1 }, () => ({ type: 'page-load', at: 1, url: 'x' })) })
        // version
        post({ source, v: v + 1, kind: 'events', events: [call('future_tool')] })
        // source: a frame of the page posting into it
        const frame = document.createElement('iframe')
        frame.srcdoc = `<script>parent.postMessage(${JSON.stringify({ source, v, kind: 'events', events: [call('framed_tool')] })}, '*')</script>`
        document.body.append(frame)
        // well-formed: accepted, but only ever for this tab
        post({ source, v, kind: 'events', events: [call('forged_but_valid')] })
        // not ours at all: ignored, not counted
        post('hello')
        post({ source: 'someone-else', v })
      },
      { source: PAGE_SOURCE, v: PROTOCOL_VERSION, victimTabId: victimTab, maxEvents: LIMITS.eventsPerBatch, hugeLength: LIMITS.text + 1 },
    )
    // The page's own call, after the forgeries: once its row arrives, they would have long before it.
    await runAgent(hostile, 'after', [['after_forgeries', {}]])
    await expect.poll(async () => calls(await tapHostile.events())).toEqual(['after_forgeries'])
    expect(await tapHostile.drops()).toBeUndefined()
  })

  it('puts HTML in tool names through as plain text, for its own tab only', async () => {
    await runAgent(hostile, 'html', [[HTML_TOOL, { html: '<script>alert(1)</script>' }]])
    await expect.poll(async () => calls(await tapHostile.events())).toContain(HTML_TOOL)
    const call = (await tapHostile.events()).find((e) => e.type === 'call' && e.tool === HTML_TOOL)
    expect(call).toMatchObject({ args: '{"html":"<script>alert(1)</script>"}' })
    // The hostile tab's own panel draws the name as text: no element is made of it, no handler runs.
    const panel = await stage.browser.openPanel(hostileTab)
    await expect.poll(() => panel.getByTestId('call-tool').allTextContents()).toContain(HTML_TOOL)
    expect(await panel.locator('[data-testid=timeline] img').count()).toBe(0)
    expect(await panel.evaluate(() => (window as { pwned?: number }).pwned)).toBeUndefined()
    // The victim's panel, open all along, never shows it.
    expect(await extensionPage.getByTestId('call-tool').allTextContents()).not.toContain(HTML_TOOL)
    await panel.close()
  })

  it('cannot reach the extension itself', async () => {
    const reachable = await hostile.evaluate(
      ({ id, name }) => {
        const runtime = (globalThis as { chrome?: { runtime?: { connect?: (id: string, info: object) => unknown } } }).chrome?.runtime
        try {
          runtime?.connect?.(id, { name })
          return typeof runtime?.connect === 'function'
        } catch {
          return false
        }
      },
      { id: stage.browser.extensionId!, name: PANEL_PORT },
    )
    expect(reachable).toBe(false)
  })

  it('reaches no other tab, and the extension keeps working for both', async () => {
    expect(await runAgent(hostile, 'still', repeat(3, ['probe', {}]))).toEqual([[], [], [GENTLE_REMINDER]])
    expect(await runAgent(victim, 'victim', repeat(3, ['victim_tool', {}]))).toEqual([[], [], [GENTLE_REMINDER]])
    await expect.poll(async () => calls(await tapVictim.events())).toEqual(['victim_tool', 'victim_tool', 'victim_tool'])
    await expect.poll(async () => calls(await tapHostile.events()).filter((t) => t === 'probe').length).toBe(3)

    const leaked = JSON.stringify(await tapVictim.messages())
    for (const marker of ['spoofed_tool', 'forged_but_valid', 'framed_tool', 'future_tool', 'probe', HTML_TOOL, 'hostile']) expect(leaked).not.toContain(marker)
    expect(await tapVictim.drops()).toBeUndefined()
  })

  it('shows a panel that subscribes later its calls, and no drop', async () => {
    const late = await tapPanelPort(extensionPage, await stage.browser.tabId(hostile))
    await expect.poll(async () => calls(await late.events())).toContain('after_forgeries')
    expect(await late.drops()).toBeUndefined()
  })
})
