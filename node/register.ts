// `node --import repeat-tool-guard/register app.js` (docs/node.md): guards every LLM request the
// process sends through the global fetch, before the app's first line runs, so the SDKs that take
// fetch once, when their client is made, take the guarded one. A bad setting stops the process
// here, with the reason, before any request.
import { readFileSync } from 'node:fs'
import { installNodeGuard } from './install.ts'
import { readSettings, startLine } from './settings.ts'

const read = readSettings(process.env, (path) => readFileSync(path, 'utf8'))
if (!read.ok) {
  process.stderr.write(`repeat-tool-guard: ${read.reason}; stopped before the app started\n`)
  process.exit(2)
}
await installNodeGuard(read.settings)
process.stderr.write(`${startLine(read.settings)}\n`)
