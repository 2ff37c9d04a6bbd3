// Attaches the panel to the Node processes of its page (ui/bridge-ports.ts): the ports named on its
// address at once; the default port and the ports the user added (ui/stored-bridge-ports.ts) as soon
// as the page turns out to be served from the loopback address. A port added while the panel is
// open is attached at once, whatever the page (the user asked for it; a panel in a tab may not know
// its page's address before the page says something), and a port removed is let go.
import type { BridgePortsSetting } from '../../ui/bridge-ports-setting.ts'
import { DEFAULT_BRIDGE_PORT, isLoopbackPage, portsFromQuery } from '../../ui/bridge-ports.ts'
import type { PanelStore } from '../store/panel-store.ts'
import { linkBridge } from './bridge-connection.ts'
import type { BridgeSinks } from './bridge-sink.ts'

export interface AttachOptions {
  readonly store: PanelStore
  readonly sinks: BridgeSinks
  readonly search: string
  /** The inspected page's address, when the host can tell it before the page's first batch. */
  readonly pageUrl?: Promise<string | undefined>
  /** The ports the user added in the panel. */
  readonly added?: BridgePortsSetting
}

export function attachBridges({ store, sinks, search, pageUrl, added }: AttachOptions): void {
  const named = portsFromQuery(search)
  const attach = (port: number): void => {
    if (sinks.links.some((link) => link.port === port)) return
    sinks.links.push(linkBridge({ port, store, onChange: sinks.changed }))
  }
  const detachRemoved = (): void => {
    const kept = new Set([DEFAULT_BRIDGE_PORT, ...named, ...(added?.ports() ?? [])])
    for (const link of sinks.links.filter((link) => !kept.has(link.port))) {
      link.close()
      sinks.links.splice(sinks.links.indexOf(link), 1)
    }
  }
  for (const port of named) attach(port)
  let loopback = false
  const attachLocal = (url: string | undefined): boolean => {
    if (loopback || !isLoopbackPage(url)) return loopback
    loopback = true
    for (const port of [DEFAULT_BRIDGE_PORT, ...(added?.ports() ?? [])]) attach(port)
    return true
  }
  let known = new Set(added?.ports())
  added?.subscribe(() => {
    const now = new Set(added.ports())
    detachRemoved()
    for (const port of now) if (loopback || !known.has(port)) attach(port)
    known = now
  })
  if (attachLocal(store.pageUrl())) return
  void pageUrl?.then(attachLocal)
  const stop = store.subscribe(() => {
    if (attachLocal(store.pageUrl())) stop()
  })
}
