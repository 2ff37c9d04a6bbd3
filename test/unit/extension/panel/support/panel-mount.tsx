// The whole panel mounted for its tests: a config sink kept in memory, an agent's calls ingested,
// a native change event.
import { act, fireEvent, render } from '@testing-library/preact'
import { RECOMMENDED_CONFIG, type GuardConfig } from '../../../../../engine/index.ts'
import { Panel } from '../../../../../extension/src/panel/components/panel.tsx'
import type { ConfigSink } from '../../../../../extension/src/panel/components/config-sink.ts'
import { createPanelStore, type PanelStore } from '../../../../../extension/src/panel/store/panel-store.ts'
import { recordingPage, repeat } from './recorded-session.ts'

/** A native `change` event (this library's `fireEvent.change` fires `input` for Preact). */
export function change(element: HTMLElement, target: { value?: string; files?: File[] }) {
  if (target.value !== undefined) (element as HTMLSelectElement).value = target.value
  if (target.files !== undefined) Object.defineProperty(element, 'files', { configurable: true, value: target.files })
  fireEvent(element, new Event('change', { bubbles: true }))
}

export function memorySink(initial: GuardConfig = RECOMMENDED_CONFIG): ConfigSink & { saved: GuardConfig[] } {
  let current = initial
  const saved: GuardConfig[] = []
  return {
    saved,
    current: () => current,
    apply: async (config) => {
      saved.push(config)
      current = config
    },
  }
}

export function mount(store: PanelStore = createPanelStore(), sink = memorySink()) {
  render(<Panel store={store} sink={sink} theme="light" />)
  return { store, sink }
}

export function ingestAgent(store: PanelStore, name = 'researcher', times = 5) {
  const page = recordingPage()
  repeat(page, { name }, 'grep', { q: 'x' }, times)
  act(() => store.ingest({ frameId: 0, url: 'http://x/', events: [{ type: 'config', at: 1, config: page.guard.config }, ...page.take()] }))
  return page
}
