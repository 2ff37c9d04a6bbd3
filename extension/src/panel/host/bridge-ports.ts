// Which Node processes the panel attaches to (docs/node-bridge.md, "In the panel"): the default bridge
// port when the inspected page is served from the loopback address, and the ports the user names
// (`?bridge=8730,8740` on the panel's address, or the inspector's command line).
import { DEFAULT_BRIDGE_PORT } from '../../protocol/bridge-messages.ts'

const LOOPBACK = ['localhost', '127.0.0.1', '[::1]']

export function isLoopbackPage(url: string | undefined): boolean {
  if (url === undefined) return false
  try {
    const { protocol, hostname } = new URL(url)
    return (protocol === 'http:' || protocol === 'https:') && LOOPBACK.includes(hostname)
  } catch {
    return false
  }
}

/** The ports named in `?bridge=`, each a TCP port, without repeats. */
export function portsFromQuery(search: string): number[] {
  const named = new URLSearchParams(search).get('bridge')
  if (named === null) return []
  const ports = named
    .split(',')
    .map((part) => Number(part.trim()))
    .filter((port) => Number.isInteger(port) && port > 0 && port <= 65_535)
  return [...new Set(ports)]
}

export { DEFAULT_BRIDGE_PORT }
