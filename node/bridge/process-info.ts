// What the panel shows of the process it attached to: "server · pid 1234 · node 20".
import { basename } from 'node:path'
import { MAX_TITLE_CHARS, type ProcessInfo } from '../../extension/src/protocol/bridge-messages.ts'

export function processInfo(proc: Pick<NodeJS.Process, 'pid' | 'version' | 'title' | 'argv'> = process): ProcessInfo {
  // `node` alone says nothing, nor the path it was started by (`/usr/bin/node`, as a process
  // manager or a test runner starts it): the script's name does (`server.js`, `next`).
  const script = proc.argv[1]
  const onlyNode = /^node(\.exe)?$/i.test(basename(proc.title))
  const title = !onlyNode || script === undefined ? proc.title : basename(script)
  return { pid: proc.pid, node: proc.version.slice(0, 64), title: title.slice(0, MAX_TITLE_CHARS) }
}
