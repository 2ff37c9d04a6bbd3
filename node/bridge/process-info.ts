// What the panel shows of the process it attached to: "server · pid 1234 · node 20".
import { basename } from 'node:path'
import { MAX_TITLE_CHARS, type ProcessInfo } from '../../extension/src/protocol/bridge-messages.ts'

export function processInfo(proc: Pick<NodeJS.Process, 'pid' | 'version' | 'title' | 'argv'> = process): ProcessInfo {
  // `node` alone says nothing: the script's name does (`server.js`, `next`).
  const script = proc.argv[1]
  const title = proc.title !== 'node' || script === undefined ? proc.title : basename(script)
  return { pid: proc.pid, node: proc.version.slice(0, 64), title: title.slice(0, MAX_TITLE_CHARS) }
}
