// The engine knows nothing of browsers or Node (CONTRIBUTING.md, "Rules for the code"), and its
// names say so: no variable of its may be named as a host's global is. Its type check (engine/tsconfig.json,
// no DOM or Node types) already refuses the globals themselves; a local of the same name would
// compile, and shadow a name every reader knows.
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'
import { parseAst } from 'vite'
import { describe, expect, it } from 'vitest'

const ROOT = resolve(import.meta.dirname, '../../..')
const HOST_GLOBALS = new Set(['window', 'document', 'navigator', 'location', 'process', 'require', 'Buffer', 'chrome', 'browser'])

interface Node {
  readonly type: string
  readonly start: number
  readonly name?: string
  readonly computed?: boolean
  readonly [key: string]: unknown
}

/**
 * Every name `text` binds or reads, with its line: the identifiers of its syntax tree, but a
 * member's or a key's name (`event.window`, `{ window: 1 }`), which is no variable.
 */
function variableNames(text: string): { name: string; line: number }[] {
  const found: { name: string; line: number }[] = []
  const visit = (node: Node, parent: Node | undefined, key: string) => {
    const memberName =
      parent !== undefined &&
      !parent.computed &&
      ((key === 'property' && parent.type === 'MemberExpression') || (key === 'key' && /Property|MethodDefinition|TSPropertySignature|TSMethodSignature/.test(parent.type)))
    if (node.type === 'Identifier' && !memberName) found.push({ name: node.name!, line: text.slice(0, node.start).split('\n').length })
    for (const [childKey, child] of Object.entries(node)) {
      for (const item of Array.isArray(child) ? child : [child]) if (item !== null && typeof item === 'object' && typeof (item as Node).type === 'string') visit(item as Node, node, childKey)
    }
  }
  visit(parseAst(text, { lang: 'ts' }) as unknown as Node, undefined, '')
  return found
}

describe('engine names', () => {
  it("names nothing after a browser's or Node's globals", () => {
    const files = readdirSync(join(ROOT, 'engine'), { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile() && e.name.endsWith('.ts'))
      .map((e) => relative(ROOT, join(e.parentPath, e.name)))
    expect(files.length).toBeGreaterThan(50)
    const named = files.flatMap((file) =>
      variableNames(readFileSync(join(ROOT, file), 'utf8'))
        .filter(({ name }) => HOST_GLOBALS.has(name))
        .map(({ name, line }) => `${file}:${line}: ${name}`),
    )
    expect(named).toEqual([])
  })
})
