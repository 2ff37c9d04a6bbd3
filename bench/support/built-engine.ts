// The engine as it ships: the built package, not the sources through the test runner's module
// loader, whose calls between modules cost more than a bundle's and would be timed as part of
// every call (docs/development.md, "Benchmarks").
import { existsSync } from 'node:fs'
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { DIST_DIR } from '../../test/e2e/support/browser.ts'

export type Engine = typeof import('../../engine/index.ts')

/**
 * The built engine package (`npm run bench` builds it first). `copy` names a copy of its own: the
 * module loaded again, whose code V8 compiles afresh for what that copy alone runs. A row timed on
 * its own copy is not slowed by the configs the rows before it ran, which an app's one guard never
 * meets, so a table's rows do not depend on their order.
 */
export async function builtEngine(copy?: string): Promise<Engine> {
  const built = resolve(DIST_DIR, 'engine/index.js')
  if (!existsSync(built)) throw new Error(`no built engine at ${built}: run npm run build`)
  const url = pathToFileURL(built)
  if (copy !== undefined) url.searchParams.set('copy', copy)
  return (await import(url.href)) as Engine
}
