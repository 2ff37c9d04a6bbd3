// The engine as it ships: the built package, not the sources through the test runner's module
// loader, whose calls between modules cost more than a bundle's and would be timed as part of
// every call (docs/development.md, "Benchmarks").
import { existsSync } from 'node:fs'
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { DIST_DIR } from '../../test/e2e/support/browser.ts'

export type Engine = typeof import('../../engine/index.ts')

/** The built engine package (`npm run bench` builds it first). */
export async function builtEngine(): Promise<Engine> {
  const built = resolve(DIST_DIR, 'engine/index.js')
  if (!existsSync(built)) throw new Error(`no built engine at ${built}: run npm run build`)
  return (await import(pathToFileURL(built).href)) as Engine
}
