// Which Node processes the panel and the popup attach to (docs/node-bridge.md, "In the panel"): the
// default bridge port and the ports the user added (stored-bridge-ports.ts) when the inspected page
// is served from the loopback address, and the ports named on the panel's address (`?bridge=8730,8740`,
// or the inspector's command line).
import { DEFAULT_BRIDGE_PORT } from '../protocol/bridge-messages.ts'

const LOOPBACK = ['localhost', '127.0.0.1', '[::1]']

export function isLoopbackPage(url: string | null | undefined): boolean {
  if (url === undefined || url === null) return false
  try {
    const { protocol, hostname } = new URL(url)
    return (protocol === 'http:' || protocol === 'https:') && LOOPBACK.includes(hostname)
  } catch {
    return false
  }
}

const isPort = (port: number): boolean => Number.isInteger(port) && port > 0 && port <= 65_535

/** The ports named in `?bridge=`, each a TCP port, without repeats. */
export function portsFromQuery(search: string): number[] {
  const named = new URLSearchParams(search).get('bridge')
  if (named === null) return []
  const ports = named
    .split(',')
    .map((part) => Number(part.trim()))
    .filter(isPort)
  return [...new Set(ports)]
}

export type ParsedPort = { readonly ok: true; readonly port: number } | { readonly ok: false; readonly reason: string }

/** A port as the user typed it: digits only, from 1 to 65535; anything else is told why. */
export function parseBridgePort(typed: string): ParsedPort {
  const text = typed.trim()
  if (text === '') return { ok: false, reason: 'Type the port the process prints on its start-up line, e.g. 8740.' }
  const port = /^\d{1,5}$/.test(text) ? Number(text) : Number.NaN
  if (!isPort(port)) return { ok: false, reason: `"${text.slice(0, 40)}" is not a port: a whole number from 1 to 65535.` }
  return { ok: true, port }
}

export { DEFAULT_BRIDGE_PORT }
