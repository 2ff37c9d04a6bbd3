// The panel page (panel.html): inside DevTools, or as an ordinary tab with ?tabId=N.
import { render } from 'preact'
import { Inspector } from './components/inspector.tsx'
import { devtoolsTheme } from './extension/devtools-theme.ts'
import { inspectedTabId } from './extension/inspected-tab.ts'
import { connectPanel } from './extension/panel-connection.ts'
import { loadPreserveLog, persistPreserveLog } from './extension/preserve-log-preference.ts'
import { createStorageConfigSink } from './extension/storage-config-sink.ts'
import { createStorageZeroCodeSink } from './extension/storage-zero-code-sink.ts'
import { createInspectorStore } from './store/inspector-store.ts'

async function main(root: HTMLElement): Promise<void> {
  const [preserveLog, sink, zeroCode] = await Promise.all([loadPreserveLog(), createStorageConfigSink(), createStorageZeroCodeSink()])
  const store = createInspectorStore({ preserveLog })
  persistPreserveLog(store)
  const tabId = inspectedTabId()
  if (tabId === undefined) store.setConnection({ kind: 'no-tab' })
  else connectPanel({ tabId, store })
  render(<Inspector store={store} sink={sink} theme={devtoolsTheme()} zeroCode={zeroCode} />, root)
}

void main(document.getElementById('app')!)
