// Listens on the panel's port the way the panel does (an extension page connecting to PANEL_PORT
// and subscribing to a tab), so tests can check exactly what the service worker delivers.
import type { Page } from 'playwright-core'
import { expect } from 'vitest'
import { PROTOCOL_VERSION, type PanelEvent } from '../../../extension/src/protocol/events.ts'
import { PANEL_PORT, type BackgroundToPanel, type DropCounts, type TabBatch } from '../../../extension/src/protocol/messages.ts'
import { checkBackgroundToPanel } from '../../../extension/src/protocol/validate.ts'

interface TapState {
  messages: unknown[]
  disconnected: boolean
}
type TapWindow = { __taps?: TapState[] }

export interface PanelTap {
  /** Everything received, each message checked against the protocol. */
  messages(): Promise<BackgroundToPanel[]>
  /** The events of the history and of every live batch, in arrival order. */
  events(): Promise<PanelEvent[]>
  batches(): Promise<TabBatch[]>
  /** The latest drop totals received. */
  drops(): Promise<DropCounts | undefined>
  disconnected(): Promise<boolean>
}

/** Subscribes to `tabId` from `page`, which must be one of the extension's pages. */
export async function tapPanelPort(page: Page, tabId: number): Promise<PanelTap> {
  const index = await page.evaluate(
    ({ name, v, tabId }) => {
      const w = window as TapWindow
      const taps = (w.__taps ??= [])
      const tap: TapState = { messages: [], disconnected: false }
      const port = chrome.runtime.connect({ name })
      port.onMessage.addListener((m) => void tap.messages.push(m))
      port.onDisconnect.addListener(() => void (tap.disconnected = true))
      port.postMessage({ v, kind: 'subscribe', tabId })
      taps.push(tap)
      return taps.length - 1
    },
    { name: PANEL_PORT, v: PROTOCOL_VERSION, tabId },
  )
  const state = () => page.evaluate((i) => (window as TapWindow).__taps![i]!, index)

  async function messages(): Promise<BackgroundToPanel[]> {
    return (await state()).messages.map((m) => {
      const checked = checkBackgroundToPanel(m)
      expect(checked, JSON.stringify(m).slice(0, 300)).toMatchObject({ ok: true })
      if (!checked.ok) throw new Error(checked.detail)
      expect(checked.value.tabId).toBe(tabId)
      return checked.value
    })
  }

  async function batches(): Promise<TabBatch[]> {
    return (await messages()).flatMap((m) => (m.kind === 'history' ? m.batches : m.kind === 'batch' ? [m.batch] : []))
  }

  return {
    messages,
    batches,
    events: async () => (await batches()).flatMap((b) => b.events),
    drops: async () => (await messages()).filter((m) => m.kind === 'drops').at(-1)?.drops,
    disconnected: async () => (await state()).disconnected,
  }
}
