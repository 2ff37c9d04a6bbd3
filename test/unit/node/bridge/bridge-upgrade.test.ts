// Who the bridge lets in: real WebSocket upgrades with forged Origin and Host headers.
import { networkInterfaces } from 'node:os'
import { afterEach, describe, expect, it } from 'vitest'
import { connect, type Stage, stage } from './bridge-stage.ts'

let current: Stage | undefined
afterEach(async () => {
  await current?.bridge.close()
  current = undefined
})

async function openWith(headers: Record<string, string>): Promise<'open' | number> {
  current ??= await stage()
  const client = connect(current.bridge.port, headers)
  const result = await client.opened
  client.socket.terminate()
  return result
}

describe('the bridge upgrade rules', () => {
  it('refuses a web page of any http(s) origin, the inspector port included', async () => {
    for (const origin of ['https://evil.example', 'http://localhost:3000', 'http://127.0.0.1:8731', 'null', 'file://']) {
      expect(await openWith({ Origin: origin }), origin).toBe(403)
    }
  })

  it('refuses a Host that is not a loopback name, as a rebound DNS name sends', async () => {
    expect(await openWith({ Host: 'evil.example' })).toBe(403)
    expect(await openWith({ Host: 'evil.example:8730', Origin: 'chrome-extension://abcdefghijklmnop' })).toBe(403)
    expect(await openWith({ Host: '127.0.0.1.evil.example' })).toBe(403)
  })

  it('lets in extension pages and clients that are not browsers, and greets them with the process', async () => {
    current = await stage()
    const allowed: Record<string, string>[] = [
      { Origin: 'chrome-extension://abcdefghijklmnop' },
      { Origin: 'moz-extension://0b1c2d3e-aaaa-bbbb-cccc-1234567890ab' },
      {},
      { Host: 'localhost' },
      { Host: '[::1]:8730' },
    ]
    for (const headers of allowed) {
      const client = connect(current.bridge.port, headers)
      expect(await client.opened).toBe('open')
      const hello = await client.next((m) => m.kind === 'hello')
      expect(hello).toMatchObject({ kind: 'hello', process: { pid: 4242, node: 'v20.0.0', title: 'server.js' }, snapshot: { type: 'snapshot', agents: [] } })
      client.socket.terminate()
    }
  })

  it('listens on 127.0.0.1 only: another address of the machine is refused', async () => {
    current = await stage()
    const others = Object.values(networkInterfaces())
      .flat()
      .filter((address) => address !== undefined && address.family === 'IPv4' && !address.internal)
      .map((address) => address!.address)
    // Every address of the machine but loopback; the loopback one answers (the control).
    expect(others.length).toBeGreaterThan(0)
    expect(await connect(current.bridge.port).opened).toBe('open')
    for (const address of others) expect(await connect(current.bridge.port, {}, address).opened, address).toBe(-1)
    const { port } = current.bridge
    expect(await connect(port, {}, 'localhost').opened).toBe('open')
  })
})
