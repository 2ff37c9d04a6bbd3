// How the panel and the popup name a Node process (docs/node-bridge.md, "In the panel").
import type { ProcessInfo } from '../protocol/bridge-messages.ts'

/** "server · pid 1234 · node 20 · server.js", as the agent list and the popup show the process. */
export function serverLabel(process: ProcessInfo): string {
  const major = /^v?(\d+)/.exec(process.node)?.[1] ?? process.node
  return `server · pid ${process.pid} · node ${major}${process.title === '' ? '' : ` · ${process.title}`}`
}
