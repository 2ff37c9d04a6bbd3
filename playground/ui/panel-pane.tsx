// The guard's panel beside the transcript. With the extension it lives in DevTools; without
// it the playground shows the panel's own components here, fed by its engine.
import { useEffect, useMemo } from 'preact/hooks'
import type { RepeatToolGuard } from '../../engine/index.ts'
import { Panel } from '../../extension/src/panel/components/panel.tsx'
import { createPanelStore } from '../../extension/src/panel/store/panel-store.ts'
import type { PageGuard } from '../agent/guard-port.ts'
import { engineConfigSink, feedPanelStore } from './engine-feed.ts'
import type { GuardChoice } from './guard-choice.ts'
import { useChanges } from './use-changes.ts'

function ExtensionNote({ guard }: { guard: PageGuard }) {
  // The config changes live from the DevTools panel: show the one in force.
  useChanges(useMemo(() => guard.subscribe && ((listener: () => void) => guard.subscribe!((e) => e.type === 'config' && listener())), [guard]))
  return (
    <div class="pane" data-testid="inspector-extension">
      <h2>Inspector</h2>
      <p>
        The extension guards this page. Open DevTools and its <strong>Repeat Tool Guard</strong> panel to watch the agents, their chains and every reminder live, and to edit the config: a change there
        applies here at once.
      </p>
      <h3>Config in force</h3>
      <pre class="text" data-testid="extension-config">
        {JSON.stringify(guard.config, null, 2)}
      </pre>
    </div>
  )
}

function InlinePanel({ guard }: { guard: RepeatToolGuard }) {
  const store = useMemo(() => createPanelStore(), [])
  const sink = useMemo(() => engineConfigSink(guard), [guard])
  useEffect(() => feedPanelStore(guard, store, location.href), [guard, store])
  return (
    <div class="inline-inspector" data-testid="inspector-inline">
      <Panel store={store} sink={sink} />
    </div>
  )
}

export function PanelPane({ choice }: { choice: GuardChoice }) {
  return choice.via === 'extension' ? <ExtensionNote guard={choice.guard} /> : <InlinePanel guard={choice.guard} />
}
