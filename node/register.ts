// `node --import repeat-tool-guard/register app.js` (docs/node.md): guards every LLM request the
// process sends through the global fetch, before the app's first line runs, so the SDKs that take
// fetch once, when their client is made, take the guarded one. A bad setting stops the process
// here, with the reason, before any request.
import { readFileSync } from 'node:fs'
import { isMainThread } from 'node:worker_threads'
import { DEFAULT_BRIDGE_PORT } from '../extension/src/protocol/bridge-messages.ts'
import { bridgePort } from './bridge/bridge-limits.ts'
import { installNodeGuard } from './install.ts'
import { serveOverBridge } from './serve-bridge.ts'
import { readSettings, startLine } from './settings.ts'

function stop(reason: string): never {
  process.stderr.write(`repeat-tool-guard: ${reason}; stopped before the app started\n`)
  return process.exit(2)
}
const read = readSettings(process.env, (path) => readFileSync(path, 'utf8'))
if (!read.ok) stop(read.reason)
// Where the panels attach unless `REPEAT_TOOL_GUARD_PORT` says otherwise (docs/node-bridge.md).
const port = bridgePort(process.env.REPEAT_TOOL_GUARD_PORT, DEFAULT_BRIDGE_PORT)
if (!port.ok) stop(port.reason)
const { settings } = read
const guard = await installNodeGuard(settings)
// `--import` runs again in every worker thread, which is guarded as well; the bridge and the line
// are the process's, once.
if (isMainThread) {
  const served = guard.guarding && port.port !== 0 ? await serveOverBridge(guard, port.port) : undefined
  const bridge = served === undefined ? 'inspector bridge off' : served.ok ? `inspector bridge on ws://127.0.0.1:${served.bridge.port}` : `inspector bridge not started (${served.reason})`
  process.stderr.write(`${startLine(settings, bridge)}\n`)
}
