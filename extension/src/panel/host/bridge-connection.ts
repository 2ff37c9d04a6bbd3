// The panel's link to a guarded Node process (docs/node-bridge.md, "In the panel"): a WebSocket to its
// bridge on the loopback address, every message checked like every other hop's, the process's
// events ingested as a frame of their own (store/server-frames.ts). A process that goes away is
// shown as gone, its agents kept; the link retries with backoff and a new process starts afresh.
import type { GuardConfig } from '../../../../engine/index.ts'
import type { ClientToBridge, ProcessInfo } from '../../protocol/bridge-messages.ts'
import { PROTOCOL_VERSION } from '../../protocol/events.ts'
import { checkBridgeToClient } from '../../protocol/validate.ts'
import type { PanelStore } from '../store/panel-store.ts'
import { serverFrameId, serverLabel } from '../store/server-frames.ts'
import { reconnectDelay } from './backoff.ts'

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

export function linkBridge({ port, store, url = `ws://127.0.0.1:${port}`, delay = reconnectDelay, onChange = () => {} }: BridgeLinkOptions): BridgeLink {
  const frameId = serverFrameId(port)
  let socket: WebSocket | undefined
  let attached: ProcessInfo | undefined
  let label = `server · port ${port}`
  let config: GuardConfig | undefined
  let attempt = 0
  let timer: ReturnType<typeof setTimeout> | undefined
  let closed = false

  const ingest = (events: Parameters<PanelStore['ingest']>[0]['events']): void => store.ingest({ frameId, url: label, events })

  function open(): void {
    timer = undefined
    if (closed) return
    try {
      socket = new WebSocket(url)
    } catch {
      retry()
      return
    }
    socket.onmessage = (message) => receive(message.data)
    socket.onclose = () => {
      socket = undefined
      if (attached) {
        // Gone: its agents stay, no longer current; a process on this port later starts afresh.
        label = `${serverLabel(attached)} · gone`
        ingest([{ type: 'page-load', at: Date.now(), url: label }])
        attached = undefined
        onChange()
      }
      retry()
    }
  }

  function retry(): void {
    if (closed) return
    attempt += 1
    timer = setTimeout(open, delay(attempt))
  }

  function receive(data: unknown): void {
    let message: unknown
    try {
      message = typeof data === 'string' ? JSON.parse(data) : undefined
    } catch {
      message = undefined
    }
    const checked = checkBridgeToClient(message)
    if (!checked.ok) {
      store.countDrop(checked.reason)
      return
    }
    const value = checked.value
    switch (value.kind) {
      case 'hello':
        attempt = 0
        attached = value.process
        label = serverLabel(value.process)
        config = value.snapshot.config
        ingest([{ type: 'page-load', at: value.snapshot.at, url: label }, value.snapshot])
        onChange()
        break
      case 'events': {
        ingest(value.events)
        for (const event of value.events) if (event.type === 'config') config = event.config
        if (value.events.some((event) => event.type === 'config')) onChange()
        break
      }
      case 'refused':
        ingest([{ type: 'fault', at: Date.now(), message: `the process refused the config: ${value.reason}` }])
        break
    }
  }

  open()
  return {
    port,
    process: () => attached,
    config: () => config,
    configure(next) {
      if (!socket || socket.readyState !== WebSocket.OPEN || !attached) return false
      const message: ClientToBridge = { v: PROTOCOL_VERSION, kind: 'configure', config: next }
      socket.send(JSON.stringify(message))
      return true
    },
    close() {
      closed = true
      if (timer !== undefined) clearTimeout(timer)
      socket?.close()
    },
  }
}
