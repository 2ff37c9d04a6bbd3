// A Node process the panel attaches to (docs/node-bridge.md, "In the panel") is kept in the store as a
// frame of its own, so its agents are a group of their own with the same chain, timeline and
// what-if. Browser frame ids are never negative: a process's frame is minus its bridge's port.
import type { ProcessInfo } from '../../protocol/bridge-messages.ts'

export const serverFrameId = (port: number): number => -port

export const isServerFrame = (frameId: number): boolean => frameId < 0

/** "server · pid 1234 · node 20", as the agent list shows the process. */
export function serverLabel(process: ProcessInfo): string {
  const major = /^v?(\d+)/.exec(process.node)?.[1] ?? process.node
  return `server · pid ${process.pid} · node ${major}${process.title === '' ? '' : ` · ${process.title}`}`
}
