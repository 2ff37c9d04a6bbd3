// Attaches the panel to the Node processes of its page (bridge-ports.ts): the named ports at once,
// the default port as soon as the page turns out to be served from the loopback address.
import type { PanelStore } from '../store/panel-store.ts'
import { linkBridge } from './bridge-connection.ts'
import { DEFAULT_BRIDGE_PORT, isLoopbackPage, portsFromQuery } from './bridge-ports.ts'
import type { BridgeSinks } from './bridge-sink.ts'

export interface AttachOptions {
  readonly store: PanelStore
  readonly sinks: BridgeSinks
  readonly search: string
  /** The inspected page's address, when the host can tell it before the page's first batch. */
  readonly pageUrl?: Promise<string | undefined>
}

export function attachBridges({ store, sinks, search, pageUrl }: AttachOptions): void {
  const attach = (port: number): void => {
    if (sinks.links.some((link) => link.port === port)) return
    sinks.links.push(linkBridge({ port, store, onChange: sinks.changed }))
  }
  for (const port of portsFromQuery(search)) attach(port)
  const attachDefault = (url: string | undefined): boolean => {
    if (!isLoopbackPage(url)) return false
    attach(DEFAULT_BRIDGE_PORT)
    return true
  }
  if (attachDefault(store.pageUrl())) return
  void pageUrl?.then(attachDefault)
  const stop = store.subscribe(() => {
    if (attachDefault(store.pageUrl())) stop()
  })
}
