// The panel's link to a guarded Node process (docs/node-bridge.md, "In the panel"): the bridge's
// socket as the panel and the popup open it (ui/bridge-socket.ts), the process's events ingested as
// a frame of their own (store/server-frames.ts). A process that goes away is shown as gone, its
// agents kept; the link tries again with backoff and a new process starts afresh.
import type { GuardConfig } from '../../../../engine/index.ts'
import type { ProcessInfo } from '../../protocol/bridge-messages.ts'
import { PROTOCOL_VERSION } from '../../protocol/events.ts'
import { openBridgeSocket } from '../../ui/bridge-socket.ts'
import type { PanelStore } from '../store/panel-store.ts'
import { serverLabel } from '../../ui/server-label.ts'
import { serverFrameId } from '../store/server-frames.ts'

export interface BridgeLink {
  readonly port: number
  /** The process attached now; undefined while none answers. */
  process(): ProcessInfo | undefined
  /** The config in force in the process, as its last snapshot or config event said. */
  config(): GuardConfig | undefined
  /** Sends a config to the process; false when no process is attached. */
  configure(config: GuardConfig): boolean
  close(): void
}

export interface BridgeLinkOptions {
  readonly port: number
  readonly store: PanelStore
  /** The bridge's address; the inspector page passes its own relay. */
  readonly url?: string
  readonly delay?: (attempt: number) => number
  /** Called whenever the process or its config changes. */
  readonly onChange?: () => void
}

export function linkBridge({ port, store, url = `ws://127.0.0.1:${port}`, delay, onChange = () => {} }: BridgeLinkOptions): BridgeLink {
  const frameId = serverFrameId(port)
  let attached: ProcessInfo | undefined
  let label = `server · port ${port}`
  let config: GuardConfig | undefined

  const ingest = (events: Parameters<PanelStore['ingest']>[0]['events']): void => store.ingest({ frameId, url: label, events })

  const socket = openBridgeSocket({
    url,
    ...(delay ? { delay } : {}),
    handlers: {
      hello(hello) {
        attached = hello.process
        label = serverLabel(hello.process)
        config = hello.snapshot.config
        ingest([{ type: 'page-load', at: hello.snapshot.at, url: label }, hello.snapshot])
        onChange()
      },
      events({ events }) {
        // The config first: the store's readers draw again as the events are ingested.
        for (const event of events) if (event.type === 'config') config = event.config
        ingest(events)
        if (events.some((event) => event.type === 'config')) onChange()
      },
      refused(reason) {
        ingest([{ type: 'fault', at: Date.now(), message: `the process refused the config: ${reason}` }])
      },
      gone() {
        // Gone: its agents stay, no longer current; a process on this port later starts afresh.
        label = `${label} · gone`
        ingest([{ type: 'page-load', at: Date.now(), url: label }])
        attached = undefined
        onChange()
      },
      dropped: (reason) => store.countDrop(reason),
    },
  })

  return {
    port,
    process: () => attached,
    config: () => config,
    configure: (next) => attached !== undefined && socket.send({ v: PROTOCOL_VERSION, kind: 'configure', config: next }),
    close: () => socket.close(),
  }
}
