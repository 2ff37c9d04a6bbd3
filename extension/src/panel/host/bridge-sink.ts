// Where a config saved in the panel goes when Node processes are attached (docs/node-bridge.md, "In the
// panel"): to the sink the panel already had (extension storage: the page), and to every process
// attached, which applies it to its next requests. With no such sink (the inspector page), the
// processes' own config is the one shown.
import { DEFAULT_CONFIG, resolveConfig } from '../../../../engine/index.ts'
import type { ConfigSink } from '../components/config-sink.ts'
import type { ProcessConfig } from '../components/process-configs.tsx'
import { serverLabel } from '../../ui/server-label.ts'
import type { BridgeLink } from './bridge-connection.ts'

export interface BridgeSinks {
  readonly sink: ConfigSink
  /** The processes' links, to which attaching adds. */
  readonly links: BridgeLink[]
  /** A link's process or config changed: the editor reads the config again. */
  changed(): void
  /** The processes attached, each with the config it said it runs. */
  processes(): readonly ProcessConfig[]
}

export function bridgeConfigSink(base?: ConfigSink): BridgeSinks {
  const listeners = new Set<() => void>()
  const links: BridgeLink[] = []
  const attachedConfig = () => links.find((link) => link.config() !== undefined)?.config()
  const sink: ConfigSink = {
    current: () => base?.current() ?? attachedConfig() ?? DEFAULT_CONFIG,
    async apply(config) {
      const checked = resolveConfig(config)
      if (base) await base.apply(checked)
      const sent = links.filter((link) => link.configure(checked)).length
      if (!base && sent === 0) throw new Error('no Node process is attached')
    },
    subscribe(listener) {
      listeners.add(listener)
      const unsubscribe = base?.subscribe?.(listener)
      return () => {
        listeners.delete(listener)
        unsubscribe?.()
      }
    },
  }
  return {
    sink,
    links,
    changed() {
      for (const listener of listeners) listener()
    },
    processes: () =>
      links.flatMap((link) => {
        const process = link.process()
        const config = link.config()
        return process === undefined || config === undefined ? [] : [{ label: serverLabel(process), config }]
      }),
  }
}
