// Where the build reads and writes, and the small helpers every build file shares.
import { fileURLToPath } from 'node:url'
import { resolve } from 'node:path'
import { readFile, writeFile } from 'node:fs/promises'

export const root = resolve(fileURLToPath(import.meta.url), '../../..')
export const at = (...p) => resolve(root, ...p)
// RTG_DIST_DIR moves the whole output, so parallel builds (and their browsers) never share files.
export const dist = (...p) => resolve(process.env.RTG_DIST_DIR ?? at('dist'), ...p)
export const quiet = { logLevel: 'warn', configFile: false }
export const readJson = async (path) => JSON.parse(await readFile(path, 'utf8'))
export const writeJson = (path, value) => writeFile(path, `${JSON.stringify(value, null, 2)}\n`)
