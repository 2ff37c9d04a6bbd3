// The engine's boundary rule tells a specifier that climbs out of engine/ by the depth of the
// file it is in, one override of biome.jsonc per depth (CONTRIBUTING.md, "Boundaries"): every file
// of the engine must sit at a depth an override covers, and that override must refuse the climb
// out of its own depth. A new, deeper folder fails here until its override is written.
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'

const root = resolve(import.meta.dirname, '../../..')

interface Override {
  readonly includes?: readonly string[]
  readonly linter?: { readonly rules?: { readonly style?: { readonly noRestrictedImports?: { readonly options?: { readonly patterns?: readonly { readonly group: readonly string[] }[] } } } } }
}

/**
 * The depths of engine/ whose files a rule of biome.jsonc keeps inside it: an override for the
 * files `d` folders down (`engine/*\/*.ts` for 1) that refuses a specifier climbing `d + 1` up.
 */
function engineDepthsRuled(): number[] {
  // Only whole-line comments: anything else that is no JSON fails the parse, and the test with it.
  const config = JSON.parse(readFileSync(join(root, 'biome.jsonc'), 'utf8').replace(/^\s*\/\/.*$/gm, '')) as { overrides: readonly Override[] }
  return config.overrides.flatMap((override) =>
    (override.includes ?? []).flatMap((glob) => {
      const folders = /^engine\/((?:\*\/)*)\*\.ts$/.exec(glob)?.[1]
      if (folders === undefined) return []
      const depth = folders.length / 2
      const refused = override.linter?.rules?.style?.noRestrictedImports?.options?.patterns?.flatMap((pattern) => pattern.group) ?? []
      return refused.includes(`${'../'.repeat(depth + 1)}**`) ? [depth] : []
    }),
  )
}

describe('the engine boundary, by depth', () => {
  it('has a rule for the depth of every file in the engine', () => {
    // A specifier that climbs out of engine/ is told by its depth (biome.jsonc): a file deeper than
    // the deepest rule would import from anywhere unchecked. Add the rule for its depth first.
    const ruled = engineDepthsRuled()
    expect(ruled).toContain(0)
    const files = readdirSync(join(root, 'engine'), { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile() && /\.[cm]?[jt]sx?$/.test(e.name))
      .map((e) => relative(root, join(e.parentPath, e.name)))
    expect(files.length).toBeGreaterThan(50)
    const unruled = files.filter((file) => !file.endsWith('.ts') || !ruled.includes(file.split('/').length - 2))
    expect(unruled).toEqual([])
  })
})
