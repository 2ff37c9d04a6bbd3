// The registered process's guard served to the panels that attach (docs/node-bridge.md): each of
// its events becomes the panel event the page script would send for the same request, and a config
// a panel saves applies from the process's next request. A port already taken leaves the process
// guarded, without a bridge: the app must never fail for the inspector's sake.
import { errorText } from '../engine/safe-reading.ts'
import { toPanelEvent } from '../extension/src/protocol/from-wire.ts'
import { type Bridge, startBridge } from './bridge/bridge-server.ts'
import { createEventHub } from './bridge/event-hub.ts'
import type { InstalledGuard } from './install.ts'

export type Served = { readonly ok: true; readonly bridge: Bridge } | { readonly ok: false; readonly reason: string }

export async function serveOverBridge(guard: InstalledGuard, port: number): Promise<Served> {
  const hub = createEventHub({ current: guard.config, apply: guard.configure })
  const unsubscribe = guard.events.subscribe((event) => {
    if (event.type === 'fault') hub.emit(event)
    else hub.emit(toPanelEvent(event.event, event.url, event.observed ? 'observe' : undefined, 'fetch'))
  })
  try {
    return { ok: true, bridge: await startBridge({ source: hub.source, port }) }
  } catch (error) {
    unsubscribe()
    return { ok: false, reason: errorText(error) }
  }
}
