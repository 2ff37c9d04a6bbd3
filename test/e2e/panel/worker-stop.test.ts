// The panel across a stopped service worker, opened as a tab for a served page with the built
// extension loaded in Chromium.
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { useStage } from '../support/stage.ts'
import { calls, labels, texts } from './live-page.ts'

const stage = useStage({ folder: resolve(import.meta.dirname, 'pages') })

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
