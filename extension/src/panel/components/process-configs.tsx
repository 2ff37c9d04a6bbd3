import type { GuardConfig } from '../../../../engine/index.ts'
import { describeThresholds } from './format.ts'

/** A Node process the panel is attached to, and the config it said it runs. */
export interface ProcessConfig {
  /** "server · pid 1234 · node 20 · server.js". */
  readonly label: string
  readonly config: GuardConfig
}

/**
 * The config in force in each Node process attached (docs/node-bridge.md, "In the panel"), as the
 * process itself last said: a config applied in the editor shows here once the process applied it.
 */
export function ProcessConfigs({ processes }: { processes: readonly ProcessConfig[] }) {
  return (
    <table class="rtg-summary" data-testid="config-in-force-processes">
      <tbody>
        {processes.map(({ label, config }) => (
          <tr key={label} data-testid="config-in-force-process">
            <th scope="row">{label}</th>
            <td class="mono">thresholds {describeThresholds(config)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  )
}
