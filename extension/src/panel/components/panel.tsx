// The whole panel, as one component. The extension mounts it in panel.html; the playground embeds
// it inline. It talks to nothing but its props, so it runs anywhere Preact runs.
//
// Props:
// - `store`: an `PanelStore` from `createPanelStore()` (store/panel-store.ts); feed it
//   panel events with `store.ingest({ frameId: 0, url, events })`.
// - `sink`: a `ConfigSink` (config-sink.ts): where the Config tab reads and saves the config.
// - `theme`: 'light' | 'dark' to match a host (DevTools); left out, it follows prefers-color-scheme.
// - `zeroCode`: optional `ZeroCodeSink` (ui/zero-code-sink.ts): zero-code mode's per-origin setting,
//   shown and switched in the status bar; left out (the playground), it is not shown.
// - `bridgePorts`: optional `BridgePortsSetting` (ui/bridge-ports-setting.ts): the Node processes'
//   ports the user added, edited in the Config tab; left out, the editor is not shown.
// - `processes`: optional, the Node processes attached and the config each runs
//   (process-configs.tsx), read at every render; shown in the Config tab.
import '../../ui/theme.css'
import './common-controls.css'
import './panel.css'
import { useEffect, useId, useRef, useState } from 'preact/hooks'
import type { PanelStore } from '../store/panel-store.ts'
import type { ImportResult } from '../store/session-file.ts'
import type { AgentKey } from '../store/timeline-entry.ts'
import { AgentList } from './agent-list.tsx'
import { ChainView } from './chain-view.tsx'
import { ConfigPanel } from './config-panel.tsx'
import type { ConfigSink } from './config-sink.ts'
import { EmptyState } from './empty-state.tsx'
import { isFindKey } from './find-key.ts'
import { movedTo } from './list-keys.ts'
import { StatusBar } from './status-bar.tsx'
import { useTheme, type Theme } from './theme.ts'
import { Timeline } from './timeline.tsx'
import { Toolbar } from './toolbar.tsx'
import { useStoreVersion } from './use-store.ts'
import { OUT_OF_REACH } from './reach.ts'
import { WhatIfPanel } from './what-if-panel.tsx'
import type { ZeroCodeSink } from '../../ui/zero-code-sink.ts'
import type { BridgePortsSetting } from '../../ui/bridge-ports-setting.ts'
import type { ProcessConfig } from './process-configs.tsx'

interface PanelProps {
  readonly store: PanelStore
  readonly sink: ConfigSink
  readonly theme?: Theme
  readonly zeroCode?: ZeroCodeSink
  readonly bridgePorts?: BridgePortsSetting
  readonly processes?: () => readonly ProcessConfig[]
}

type Tab = 'timeline' | 'config' | 'what-if'

const TABS: readonly { readonly id: Tab; readonly label: string }[] = [
  { id: 'timeline', label: 'Timeline' },
  { id: 'config', label: 'Config' },
  { id: 'what-if', label: 'What-if' },
]

export function Panel({ store, sink, theme, zeroCode, bridgePorts, processes }: PanelProps) {
  useStoreVersion(store)
  const resolvedTheme = useTheme(theme)
  const [tab, setTab] = useState<Tab>('timeline')
  const [selected, setSelected] = useState<AgentKey | null>(null)
  const [imported, setImported] = useState<{ result: ImportResult; name: string } | null>(null)
  const agent = selected === null ? undefined : store.agent(selected)
  const filter = useRef<HTMLInputElement>(null)
  const ids = useId()
  const tabId = (id: Tab) => `${ids}-tab-${id}`
  const tabs = useRef<HTMLDivElement>(null)

  // ←/→ (and Home/End) go from tab to tab, as in DevTools: one tab stop, the selected tab.
  function onTabKey(event: KeyboardEvent): void {
    const key = event.key === 'ArrowRight' ? 'ArrowDown' : event.key === 'ArrowLeft' ? 'ArrowUp' : event.key
    if (key === 'ArrowDown' || key === 'ArrowUp' || key === 'Home' || key === 'End') {
      const at = TABS.findIndex((t) => t.id === tab)
      const to = movedTo(key, at, 0, TABS.length - 1)!
      event.preventDefault()
      setTab(TABS[to]!.id)
      tabs.current?.querySelectorAll<HTMLElement>('[role="tab"]')[to]?.focus()
    }
  }

  // A cleared log or a new page can take the selected agent away: fall back to every agent.
  useEffect(() => {
    if (selected !== null && !agent) setSelected(null)
  }, [selected, agent])

  const connection = store.connection()
  return (
    <div
      class={`rtg-inspector rtg-theme-${resolvedTheme}`}
      data-testid="inspector"
      onKeyDown={(event) => {
        if (!isFindKey(event)) return
        // Handled here: not the browser's find bar, nor DevTools' (which extension panels forward keys to).
        event.preventDefault()
        event.stopPropagation()
        filter.current?.focus()
        filter.current?.select()
      }}
    >
      <Toolbar store={store} filterRef={filter} onImported={(result, name) => setImported({ result, name })} />
      {imported && <ImportBanner {...imported} onClose={() => setImported(null)} />}
      {store.paused && (
        <div class="rtg-banner" role="status" data-testid="paused-banner">
          Recording is paused: new calls are not recorded (agents and their runs stay current). Press the record button to resume.
        </div>
      )}
      {connection.kind === 'no-tab' ? (
        <EmptyState title="No tab to inspect.">
          <p>
            Open DevTools on a page and choose the Repeat Tool Guard panel, or open this page as <code class="mono">panel.html?tabId=N</code>.
          </p>
        </EmptyState>
      ) : (
        <div class="rtg-main">
          <aside class="rtg-agents-pane" aria-label="Agents">
            <AgentList store={store} selected={agent ? selected : null} onSelect={setSelected} />
          </aside>
          <section class="rtg-detail">
            <div class="rtg-tabs" role="tablist" aria-label="Views" ref={tabs} onKeyDown={onTabKey}>
              {TABS.map(({ id, label }) => (
                <button
                  key={id}
                  id={tabId(id)}
                  type="button"
                  role="tab"
                  class="rtg-tab"
                  aria-selected={tab === id}
                  aria-controls={`${ids}-tabpanel`}
                  tabIndex={tab === id ? 0 : -1}
                  data-testid={`tab-${id}`}
                  onClick={() => setTab(id)}
                >
                  {label}
                </button>
              ))}
            </div>
            <div class="rtg-tab-body" role="tabpanel" id={`${ids}-tabpanel`} aria-labelledby={tabId(tab)}>
              {tab === 'timeline' && (
                <>
                  {agent && <ChainView agent={agent} config={store.config() ?? sink.current()} />}
                  {(agent ? agent.descriptor.kind !== 'hook' : store.agents().some((row) => row.record.descriptor.kind !== 'hook')) && (
                    <p class="rtg-note rtg-wire-note" data-testid="wire-note">
                      Agents that do not call the page API are reached through the page's <code class="mono">fetch</code> and <code class="mono">XMLHttpRequest</code>, OpenAI Responses continued by
                      id, WebMCP tools and WebLLM's worker. {OUT_OF_REACH}
                    </p>
                  )}
                  <Timeline store={store} agent={agent ? selected : null} />
                </>
              )}
              {tab === 'config' && <ConfigPanel store={store} sink={sink} {...(bridgePorts ? { bridgePorts } : {})} {...(processes ? { processes: processes() } : {})} />}
              {tab === 'what-if' && <WhatIfPanel store={store} sink={sink} />}
            </div>
          </section>
        </div>
      )}
      <StatusBar store={store} {...(zeroCode ? { zeroCode } : {})} />
    </div>
  )
}

function ImportBanner({ result, name, onClose }: { result: ImportResult; name: string; onClose: () => void }) {
  return (
    <div class={`rtg-banner${result.ok ? '' : ' rtg-banner-error'}`} role={result.ok ? 'status' : 'alert'} data-testid="import-result">
      <div>
        {result.ok ? (
          <>
            <p>
              Imported <b>{name}</b>. Live events are set aside so nothing mixes into it or clears it; press <b>Back to live</b> (or Clear) to leave it.
            </p>
            {result.session.sanitized && <p data-testid="import-sanitized">It was exported sanitized: tool arguments, results and fault texts show as their length and a hash.</p>}
            {result.warnings.map((warning) => (
              <p key={warning}>{warning}</p>
            ))}
          </>
        ) : (
          <>
            <p>
              <b>{name}</b> was not imported; the current session is unchanged.
            </p>
            <ul data-testid="import-errors">
              {result.errors.map((error) => (
                <li key={error}>{error}</li>
              ))}
            </ul>
          </>
        )}
      </div>
      <button type="button" class="rtg-tool-button" aria-label="Dismiss" onClick={onClose}>
        ✕
      </button>
    </div>
  )
}
