// `npx repeat-tool-guard inspect [port ...]` (docs/node-bridge.md, "Without the extension"): the panel as a
// page on http://127.0.0.1:8731 (REPEAT_TOOL_GUARD_INSPECT_PORT moves it), attached to the bridges
// on the ports given (default 8730).
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { DEFAULT_BRIDGE_PORT, DEFAULT_INSPECT_PORT } from '../../extension/src/protocol/bridge-messages.ts'
import { startInspector } from './inspect-server.ts'

const [command, ...rest] = process.argv.slice(2)
if (command !== 'inspect') {
  process.stderr.write('usage: repeat-tool-guard inspect [bridge port ...]\n')
  process.exit(2)
}
const bridges = rest.length === 0 ? [DEFAULT_BRIDGE_PORT] : rest.map(Number)
if (bridges.some((port) => !Number.isInteger(port) || port < 1 || port > 65_535)) {
  process.stderr.write(`repeat-tool-guard inspect: not a port: ${rest.join(' ')}\n`)
  process.exit(2)
}
const port = Number(process.env.REPEAT_TOOL_GUARD_INSPECT_PORT ?? DEFAULT_INSPECT_PORT)
// The built panel ships beside this file, in inspector/.
const assets = join(dirname(fileURLToPath(import.meta.url)), 'inspector')
const inspector = await startInspector({ assets, port, bridges })
process.stderr.write(`repeat-tool-guard inspect: ${inspector.url} (bridges: ${bridges.join(', ')})\n`)
