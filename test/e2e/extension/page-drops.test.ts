// The other direction of the window hop: a page forging the relay's messages to its own page
// script. The page script drops them, and its counts reach the panel with the relay's; the
// relay's own messages (config, resync) are never counted.
import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import { RECOMMENDED_CONFIG } from '../../../engine/index.ts'
import { PROTOCOL_VERSION } from '../../../extension/src/protocol/events.ts'
import { CONFIG_STORAGE_KEY, CONTENT_SOURCE } from '../../../extension/src/protocol/messages.ts'
import { useStage } from '../support/stage.ts'
import { FIXTURES_DIR, type AgentWindow } from './fixture.ts'
import { tapPanelPort, type PanelTap } from './panel-tap.ts'

const stage = useStage({ folder: FIXTURES_DIR })
let page: Page
let extensionPage: Page
let tap: PanelTap

const thresholds = () => page.evaluate(() => (window as unknown as AgentWindow).__REPEAT_TOOL_GUARD__.config.thresholds)

beforeAll(async () => {
  let tabId: number
  ;({ page, tabId } = await stage.open('agent.html?forger'))
  extensionPage = await stage.browser.openPanel(tabId)
  tap = await tapPanelPort(extensionPage, tabId)
})

describe("a page forging the relay's messages", () => {
  it('has them dropped by its page script and counted with the drops of the tab', async () => {
    // The relay's own traffic first: a stored config reaches the page and is no drop.
    await extensionPage.evaluate(([key, config]) => chrome.storage.local.set({ [key]: config }), [CONFIG_STORAGE_KEY, { ...RECOMMENDED_CONFIG, thresholds: [2, 6] }] as const)
    await expect.poll(thresholds).toEqual([2, 6])

    await page.evaluate(
      ({ source, v }) => {
        const post = (message: unknown) => window.postMessage(message, '*')
        // version, then shape: a config the engine refuses
        post({ source, v: v + 1, kind: 'config', config: {} })
        post({ source, v, kind: 'config', config: { thresholds: [1] } })
        // source: a frame of the page posting into it
        const frame = document.createElement('iframe')
        frame.srcdoc = `<script>parent.postMessage(${JSON.stringify({ source, v, kind: 'resync' })}, '*')</script>`
        document.body.append(frame)
      },
      { source: CONTENT_SOURCE, v: PROTOCOL_VERSION },
    )
    await expect.poll(() => tap.drops(), { timeout: 10_000 }).toEqual({ version: 1, shape: 1, source: 1 })
    expect(await thresholds()).toEqual([2, 6])
  })
})
