// The panel page (panel.html): inside DevTools, or as an ordinary tab with ?tabId=N.
import { render } from 'preact'
import { Panel } from './components/panel.tsx'
import type { Theme } from './components/theme.ts'
import { devtoolsTheme, followDevtoolsTheme } from './host/devtools-theme.ts'
import { focusFilterOnFind } from './host/find-shortcut.ts'
import { inspectedTabId } from '../ui/inspected-tab.ts'
import { panelBudget } from './host/panel-budget.ts'
import { connectPanel } from './host/panel-connection.ts'
import { loadPreserveLog, persistPreserveLog } from './host/preserve-log-preference.ts'
import { createStorageConfigSink } from './host/storage-config-sink.ts'
import { attachBridges } from './host/attach-bridges.ts'
import { bridgeConfigSink } from './host/bridge-sink.ts'
import { inspectedPageUrl } from './host/inspected-page-url.ts'
import { createStorageZeroCodeSink } from '../ui/storage-zero-code-sink.ts'
import { createStoredBridgePorts } from '../ui/stored-bridge-ports.ts'
import { createPanelStore } from './store/panel-store.ts'

async function main(root: HTMLElement): Promise<void> {
  const [preserveLog, storageSink, zeroCode, bridgePorts] = await Promise.all([loadPreserveLog(), createStorageConfigSink(), createStorageZeroCodeSink(), createStoredBridgePorts()])
  // A config saved here goes to the page and to every Node process attached (docs/node-bridge.md).
  const sinks = bridgeConfigSink(storageSink)
  const { sink } = sinks
  const store = createPanelStore({ preserveLog, ...panelBudget() })
  persistPreserveLog(store)
  const tabId = inspectedTabId()
  if (tabId === undefined) store.setConnection({ kind: 'no-tab' })
  else connectPanel({ tabId, store })
  attachBridges({ store, sinks, search: location.search, pageUrl: inspectedPageUrl(), added: bridgePorts })
  const draw = (theme: Theme | undefined) => render(<Panel store={store} sink={sink} theme={theme} zeroCode={zeroCode} bridgePorts={bridgePorts} processes={sinks.processes} />, root)
  draw(devtoolsTheme())
  focusFilterOnFind()
  followDevtoolsTheme(draw)
}

void main(document.getElementById('app')!)
