// The inspector page (`npx repeat-tool-guard inspect`, docs/node-bridge.md): the panel as an ordinary
// page served on http://127.0.0.1:8731, with no extension. It attaches to the Node processes named
// on the command line through the inspector's own relay (node/inspect/), never to a bridge directly:
// the bridges refuse every web origin, this one included (docs/security.md, "The Node bridge").
import { render } from 'preact'
import { Panel } from '../panel/components/panel.tsx'
import { linkBridge } from '../panel/host/bridge-connection.ts'
import { portsFromQuery } from '../ui/bridge-ports.ts'
import { bridgeConfigSink } from '../panel/host/bridge-sink.ts'
import { createPanelStore } from '../panel/store/panel-store.ts'

function main(root: HTMLElement): void {
  const store = createPanelStore()
  store.setConnection({ kind: 'live' })
  const sinks = bridgeConfigSink()
  for (const port of portsFromQuery(location.search)) {
    sinks.links.push(linkBridge({ port, store, url: `ws://${location.host}/bridge/${port}`, onChange: sinks.changed }))
  }
  render(<Panel store={store} sink={sinks.sink} processes={sinks.processes} />, root)
}

main(document.getElementById('app')!)
