import './common-controls.css'
import './config-panel.css'
import type { GuardConfig } from '../../../../engine/index.ts'
import type { BridgePortsSetting } from '../../ui/bridge-ports-setting.ts'
import type { PanelStore } from '../store/panel-store.ts'
import { BridgePortsEditor } from './bridge-ports-editor.tsx'
import { type ProcessConfig, ProcessConfigs } from './process-configs.tsx'
import { ConfigEditor } from './config-editor.tsx'
import type { ConfigSink } from './config-sink.ts'
import { describeDetectors } from './detector-summary.ts'
import { describePatterns, describeThresholds } from './format.ts'

/** The Config tab: what the page runs now, the editor for what it should run, and the Node processes' ports. */
export function ConfigPanel({ store, sink, bridgePorts, processes = [] }: { store: PanelStore; sink: ConfigSink; bridgePorts?: BridgePortsSetting; processes?: readonly ProcessConfig[] }) {
  const inForce = store.config()
  const pending = inForce !== undefined && JSON.stringify(inForce) !== JSON.stringify(sink.current())
  return (
    <div class="rtg-pane-scroll rtg-config-panel">
      <section aria-labelledby="rtg-in-force">
        <h2 id="rtg-in-force" class="rtg-heading">
          In force on the page
        </h2>
        {inForce === undefined ? (
          <p class="rtg-muted" data-testid="config-in-force">
            The page has not reported its config yet: it does when its guard starts and after every change.
          </p>
        ) : (
          <ConfigSummary config={inForce} />
        )}
        {pending && <p class="rtg-note">The saved config below differs: the page has not confirmed it yet.</p>}
      </section>
      {processes.length > 0 && (
        <section aria-labelledby="rtg-in-force-processes">
          <h2 id="rtg-in-force-processes" class="rtg-heading">
            In force in the Node processes
          </h2>
          <ProcessConfigs processes={processes} />
        </section>
      )}
      <section aria-labelledby="rtg-edit-config">
        <h2 id="rtg-edit-config" class="rtg-heading">
          Edit
        </h2>
        <ConfigEditor
          sink={sink}
          hint="Applying sends the config to the inspected page's guard, which confirms it above, and to every Node process attached. Keys left out take the recommended values."
        />
      </section>
      {bridgePorts !== undefined && (
        <section aria-labelledby="rtg-node-processes">
          <h2 id="rtg-node-processes" class="rtg-heading">
            Node processes
          </h2>
          <BridgePortsEditor setting={bridgePorts} />
        </section>
      )}
    </div>
  )
}

function ConfigSummary({ config }: { config: GuardConfig }) {
  return (
    <table class="rtg-summary" data-testid="config-in-force">
      <tbody>
        <tr>
          <th scope="row">Thresholds</th>
          <td class="mono" data-testid="config-in-force-thresholds">
            {describeThresholds(config)}
          </td>
        </tr>
        <tr>
          <th scope="row">Tracked tools</th>
          <td class="mono">{describePatterns(config.include, 'every tool')}</td>
        </tr>
        <tr>
          <th scope="row">Transparent tools</th>
          <td class="mono">{describePatterns(config.exclude, 'none')}</td>
        </tr>
        <tr>
          <th scope="row">Arguments quoted</th>
          <td class="mono">up to {config.argumentsPreviewChars} characters</td>
        </tr>
        <tr>
          <th scope="row">Detectors</th>
          <td class="mono" data-testid="config-in-force-detectors">
            {describeDetectors(config)}
          </td>
        </tr>
      </tbody>
    </table>
  )
}
