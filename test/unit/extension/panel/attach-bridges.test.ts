// Which Node processes the panel attaches to (panel/host/attach-bridges.ts): the ports on its address
// at once; the default port and the ports the user added once the page is known to be served from
// the loopback address; a port added while the panel is open at once, whatever the page; a port
// removed let go. The sockets are recorded, not opened: what is checked is where the panel connects.
import { afterEach, describe, expect, it, vi } from 'vitest'
import { attachBridges } from '../../../../extension/src/panel/host/attach-bridges.ts'
import { bridgeConfigSink } from '../../../../extension/src/panel/host/bridge-sink.ts'
import { createPanelStore } from '../../../../extension/src/panel/store/panel-store.ts'
import { BRIDGE_PORTS_STORAGE_KEY, createStoredBridgePorts } from '../../../../extension/src/ui/stored-bridge-ports.ts'
import { fakeStorage } from './support/fake-storage.ts'

/** Records the address of every socket opened and whether it was closed; none ever connects. */
function recordSockets() {
  const sockets: { url: string; closed: boolean }[] = []
  class RecordedSocket {
    static readonly OPEN = 1
    readonly readyState = 0
    onmessage: unknown = null
    onclose: unknown = null
    onerror: unknown = null
    readonly record: { url: string; closed: boolean }
    constructor(url: string) {
      this.record = { url, closed: false }
      sockets.push(this.record)
    }
    close() {
      this.record.closed = true
    }
  }
  vi.stubGlobal('WebSocket', RecordedSocket)
  return { open: () => sockets.filter((s) => !s.closed).map((s) => s.url), all: sockets }
}

afterEach(() => void vi.unstubAllGlobals())

const port = (n: number) => `ws://127.0.0.1:${n}`

async function panel(stored: number[], search = '?tabId=3') {
  const storage = fakeStorage({ [BRIDGE_PORTS_STORAGE_KEY]: stored })
  const added = await createStoredBridgePorts(storage)
  const store = createPanelStore()
  const sinks = bridgeConfigSink()
  return { store, sinks, added, attach: (pageUrl?: Promise<string | undefined>) => attachBridges({ store, sinks, search, added, ...(pageUrl ? { pageUrl } : {}) }) }
}

describe('the panel attaching to Node processes', () => {
  it('attaches to the ports on its address at once, and to no other for a page not served from localhost', async () => {
    const sockets = recordSockets()
    const { attach, store } = await panel([8750], '?tabId=3&bridge=8740')
    attach(Promise.resolve('https://app.example/'))
    store.ingest({ frameId: 0, url: 'https://app.example/', origin: 'https://app.example', events: [{ type: 'page-load', at: 1, url: 'https://app.example/' }] })
    await Promise.resolve()
    expect(sockets.open()).toEqual([port(8740)])
  })

  it('attaches to the default port and the ports added once the page turns out to be served from localhost', async () => {
    const sockets = recordSockets()
    const { attach, store } = await panel([8750, 8730])
    attach()
    expect(sockets.open()).toEqual([])
    store.ingest({ frameId: 0, url: 'http://localhost:3000/', origin: 'http://localhost:3000', events: [{ type: 'page-load', at: 1, url: 'http://localhost:3000/' }] })
    expect(sockets.open()).toEqual([port(8730), port(8750)])
  })

  it('attaches to the default port and the ports added when DevTools names a page served from localhost', async () => {
    const sockets = recordSockets()
    const { attach } = await panel([8750])
    const pageUrl = Promise.resolve('http://127.0.0.1:5173/chat')
    attach(pageUrl)
    await pageUrl
    await Promise.resolve()
    expect(sockets.open()).toEqual([port(8730), port(8750)])
  })

  it('attaches at once to a port added while it is open, whatever the page, and lets a removed one go', async () => {
    const sockets = recordSockets()
    const { attach, added, sinks } = await panel([8750])
    attach()
    await added.add('8760')
    expect(sockets.open()).toEqual([port(8760)])
    expect(sinks.links.map((link) => link.port)).toEqual([8760])
    await added.remove(8760)
    expect(sockets.open()).toEqual([])
    expect(sinks.links).toEqual([])
    // Added again: attached again.
    await added.add('8760')
    expect(sockets.open()).toEqual([port(8760)])
  })
})
