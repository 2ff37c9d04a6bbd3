// The panel page (panel.html): inside DevTools, or as an ordinary tab with ?tabId=N.
import { render } from 'preact'
import { Inspector } from './components/inspector.tsx'
import type { Theme } from './components/theme.ts'
import { devtoolsTheme, followDevtoolsTheme } from './extension/devtools-theme.ts'
import { focusFilterOnFind } from './extension/find-shortcut.ts'
import { inspectedTabId } from '../ui/inspected-tab.ts'
import { panelBudget } from './extension/panel-budget.ts'
import { connectPanel } from './extension/panel-connection.ts'
import { loadPreserveLog, persistPreserveLog } from './extension/preserve-log-preference.ts'
import { createStorageConfigSink } from './extension/storage-config-sink.ts'
import { createStorageZeroCodeSink } from '../ui/storage-zero-code-sink.ts'
import { createInspectorStore } from './store/inspector-store.ts'

async function main(root: HTMLElement): Promise<void> {
  const [preserveLog, sink, zeroCode] = await Promise.all([loadPreserveLog(), createStorageConfigSink(), createStorageZeroCodeSink()])
  const store = createInspectorStore({ preserveLog, ...panelBudget() })
  persistPreserveLog(store)
  const tabId = inspectedTabId()
  if (tabId === undefined) store.setConnection({ kind: 'no-tab' })
  else connectPanel({ tabId, store })
  const draw = (theme: Theme | undefined) => render(<Inspector store={store} sink={sink} theme={theme} zeroCode={zeroCode} />, root)
  draw(devtoolsTheme())
  focusFilterOnFind()
  followDevtoolsTheme(draw)
}

void main(document.getElementById('app')!)
