// Which bridge ports the panel and the popup attach to: the ports typed by the user, checked with a
// reason; the ports named on the panel's address; the pages served from the loopback address; and
// the ports the user added, kept in extension storage.
import { describe, expect, it } from 'vitest'
import { isLoopbackPage, parseBridgePort, portsFromQuery } from '../../../../extension/src/ui/bridge-ports.ts'
import { BRIDGE_PORTS_STORAGE_KEY, createStoredBridgePorts, MAX_STORED_PORTS, readStoredPorts } from '../../../../extension/src/ui/stored-bridge-ports.ts'
import { fakeStorage } from '../panel/support/fake-storage.ts'

const notAPort = (text: string) => ({ ok: false, reason: `"${text}" is not a port: a whole number from 1 to 65535.` })

describe('a port as typed', () => {
  it('is a whole number from 1 to 65535, spaces around it ignored', () => {
    expect([parseBridgePort('1'), parseBridgePort(' 8740 '), parseBridgePort('65535')]).toEqual([
      { ok: true, port: 1 },
      { ok: true, port: 8740 },
      { ok: true, port: 65_535 },
    ])
  })

  it('is refused with the reason otherwise', () => {
    for (const text of ['0', '65536', '70000', '-1', '87x0', '8740.5', '1e3', '0x10', '123456']) expect(parseBridgePort(text)).toEqual(notAPort(text))
    expect(parseBridgePort('  ')).toEqual({ ok: false, reason: 'Type the port the process prints on its start-up line, e.g. 8740.' })
  })
})

describe('the ports named on the address, and the pages served from the loopback address', () => {
  it('reads ?bridge= as ports, without repeats or anything not a port', () => {
    expect(portsFromQuery('?tabId=3&bridge=8740, 8741,8740,0,x,70000')).toEqual([8740, 8741])
    expect(portsFromQuery('?tabId=3')).toEqual([])
  })

  it('tells loopback pages from the rest', () => {
    for (const url of ['http://localhost:3000/', 'https://127.0.0.1/x', 'http://[::1]:5173/']) expect(isLoopbackPage(url)).toBe(true)
    for (const url of ['https://app.example/', 'http://localhost.example/', 'file:///tmp/x.html', 'not a url', undefined, null]) expect(isLoopbackPage(url)).toBe(false)
  })
})

describe('the ports the user added', () => {
  it('reads from storage only ports, without repeats, at most the limit', () => {
    expect(readStoredPorts([8740, '8741', 8740, 0, 1.5, 70_000, null, 8742])).toEqual([8740, 8742])
    expect(readStoredPorts('8740')).toEqual([])
    expect(readStoredPorts(Array.from({ length: 40 }, (_, i) => 9000 + i))).toHaveLength(MAX_STORED_PORTS)
  })

  it('adds a port typed, stores it, and tells its listeners', async () => {
    const storage = fakeStorage({ [BRIDGE_PORTS_STORAGE_KEY]: [8740] })
    const setting = await createStoredBridgePorts(storage)
    let heard = 0
    setting.subscribe(() => heard++)
    await setting.add(' 8741')
    expect([setting.ports(), storage.items[BRIDGE_PORTS_STORAGE_KEY], heard > 0]).toEqual([[8740, 8741], [8740, 8741], true])
  })

  it('refuses a bad port, a repeat and one past the limit with the reason, storing nothing', async () => {
    const full = Array.from({ length: MAX_STORED_PORTS }, (_, i) => 9000 + i)
    const storage = fakeStorage({ [BRIDGE_PORTS_STORAGE_KEY]: [8740] })
    const setting = await createStoredBridgePorts(storage)
    await expect(setting.add('87x0')).rejects.toThrow('"87x0" is not a port: a whole number from 1 to 65535.')
    await expect(setting.add('8740')).rejects.toThrow('Port 8740 is already in the list.')
    storage.external(BRIDGE_PORTS_STORAGE_KEY, full)
    await expect(setting.add('8740')).rejects.toThrow(`At most ${MAX_STORED_PORTS} ports: remove one first.`)
    expect(storage.local.set).not.toHaveBeenCalled()
    expect(setting.ports()).toEqual(full)
  })

  it('removes a port, and follows what another panel stored', async () => {
    const storage = fakeStorage({ [BRIDGE_PORTS_STORAGE_KEY]: [8740, 8741] })
    const setting = await createStoredBridgePorts(storage)
    await setting.remove(8740)
    expect(storage.items[BRIDGE_PORTS_STORAGE_KEY]).toEqual([8741])
    storage.external(BRIDGE_PORTS_STORAGE_KEY, [8750, 'junk'])
    storage.external(BRIDGE_PORTS_STORAGE_KEY, [1], 'sync')
    expect(setting.ports()).toEqual([8750])
  })
})
