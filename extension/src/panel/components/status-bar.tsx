import './common-controls.css'
import './status-bar.css'
import type { ConnectionState } from '../store/connection-state.ts'
import type { PanelStore } from '../store/panel-store.ts'
import { count } from './format.ts'
import { wasteCostText } from './waste-cost.tsx'
import type { ZeroCodeSink } from '../../ui/zero-code-sink.ts'
import { ZeroCodeSwitch } from '../../ui/zero-code-switch.tsx'

/** The bottom line: what is held, what was lost and why, the page, and zero-code mode's setting for it. */
export function StatusBar({ store, zeroCode }: { store: PanelStore; zeroCode?: ZeroCodeSink }) {
  const stats = store.stats()
  const agents = store.agents().length
  const url = store.pageUrl()
  const waste = store.tabWaste()
  return (
    <footer class="rtg-status-bar" data-testid="status-bar">
      <span data-testid="connection" data-state={store.connection().kind}>
        {connectionText(store.connection())}
      </span>
      {url !== undefined && (
        <span class="rtg-status-url mono" title={url}>
          {url}
        </span>
      )}
      {zeroCode && <ZeroCodeSwitch sink={zeroCode} origin={store.pageOrigin()} />}
      <span class="rtg-spacer" />
      <span>
        {count(agents, 'agent')} · {count(stats.calls, 'call')}
      </span>
      {/* Shown once an event carried a cost: with every opt-in detector off, the bar stays as it was. */}
      {(waste.ms !== undefined || waste.tokens !== undefined) && (
        <span data-testid="tab-waste" title="Across the tab's agents: calls spent inside runs or cycles that reached a reminder, the time those runs took, and the tokens the model spent on them">
          Wasted: {count(waste.calls, 'call')} · {wasteCostText(waste)}
        </span>
      )}
      {stats.discarded > 0 && (
        <span data-testid="discarded" title="The panel keeps a bounded log; the oldest rows go first">
          {count(stats.discarded, 'older row')} discarded
        </span>
      )}
      {stats.refused > 0 && (
        <span data-testid="refused" title="Agents past the panel's limits (2,000 in all, 50 per frame) are not recorded">
          {count(stats.refused, 'event')} of agents over the limits refused
        </span>
      )}
      {store.imported && (
        <span data-testid="imported-status" title="An imported session is shown; live events change nothing of it">
          Imported session{stats.setAside > 0 && ` · ${count(stats.setAside, 'live event')} set aside`}
        </span>
      )}
      {stats.notRecorded > 0 && <span>{count(stats.notRecorded, 'row')} not recorded while paused</span>}
      {stats.historyTruncated && <span title="The background buffer had dropped its oldest events before this panel opened">history truncated</span>}
    </footer>
  )
}

function connectionText(state: ConnectionState): string {
  switch (state.kind) {
    case 'inline':
      return 'Inline'
    case 'connecting':
      return 'Connecting…'
    case 'live':
      return '● Live'
    case 'reconnecting':
      return `Reconnecting (attempt ${state.attempt}, in ${Math.round(state.retryInMs)} ms)…`
    case 'no-tab':
      return 'No tab'
  }
}
