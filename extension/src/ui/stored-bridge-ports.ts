// The bridge ports the user added in the panel (docs/node-bridge.md, "In the panel"), kept in
// extension storage so that every panel and the popup attach to them for pages served from the
// loopback address: the way to reach a process whose bridge is not on the default port when the
// panel's address cannot name it (the panel inside DevTools).
import type { BridgePortsSetting } from './bridge-ports-setting.ts'
import { parseBridgePort } from './bridge-ports.ts'

export const BRIDGE_PORTS_STORAGE_KEY = 'bridgePorts'
/** Enough for every process a developer runs at once; a longer list is cut. */
export const MAX_STORED_PORTS = 16

type Storage = Pick<typeof chrome.storage, 'local' | 'onChanged'>

/** The stored value's ports: whatever else storage holds there is left out. */
export function readStoredPorts(value: unknown): number[] {
  if (!Array.isArray(value)) return []
  const ports = value.filter((port): port is number => typeof port === 'number' && parseBridgePort(String(port)).ok)
  return [...new Set(ports)].slice(0, MAX_STORED_PORTS)
}

export async function createStoredBridgePorts(storage: Storage = chrome.storage): Promise<BridgePortsSetting> {
  const listeners = new Set<() => void>()
  const read = async (): Promise<number[]> => readStoredPorts((await storage.local.get(BRIDGE_PORTS_STORAGE_KEY))[BRIDGE_PORTS_STORAGE_KEY])
  let ports = await read()
  const changed = (next: number[]) => {
    ports = next
    for (const listener of listeners) listener()
  }
  const write = async (next: number[]) => {
    await storage.local.set({ [BRIDGE_PORTS_STORAGE_KEY]: next })
    changed(next)
  }

  storage.onChanged.addListener((changes, area) => {
    if (area !== 'local' || !Object.hasOwn(changes, BRIDGE_PORTS_STORAGE_KEY)) return
    changed(readStoredPorts(changes[BRIDGE_PORTS_STORAGE_KEY]?.newValue))
  })

  return {
    ports: () => ports,
    async add(typed) {
      const parsed = parseBridgePort(typed)
      if (!parsed.ok) throw new Error(parsed.reason)
      // Read again: another panel may have added one since.
      const stored = await read()
      if (stored.includes(parsed.port)) throw new Error(`Port ${parsed.port} is already in the list.`)
      if (stored.length >= MAX_STORED_PORTS) throw new Error(`At most ${MAX_STORED_PORTS} ports: remove one first.`)
      await write([...stored, parsed.port])
    },
    async remove(port) {
      await write((await read()).filter((kept) => kept !== port))
    },
    subscribe(listener) {
      listeners.add(listener)
      return () => void listeners.delete(listener)
    },
  }
}
