// The engine as the package an agent author installs: `repeat-tool-guard`, with two entries:
// `repeat-tool-guard/engine`, the built ES module with its declarations, and
// `repeat-tool-guard/register`, the Node entry that guards a process's fetch (docs/node.md), and
// the command `repeat-tool-guard inspect`, the panel as a page (docs/node-bridge.md). It has
// no dependencies (the build inlines safe-stable-stringify and picomatch) and holds nothing a
// consumer does not load.
import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { cp, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'

/** The sources import with `.ts`; a consumer resolves the emitted `.d.ts` through `.js`. */
const TS_SPECIFIER = /(\bfrom\s+['"]\.{1,2}\/[^'"]*)\.ts(['"])/g

/** Declarations for the engine's public entry and what it reaches, nothing else. */
async function emitDeclarations(root, outDir) {
  const tsc = resolve(root, 'node_modules/typescript/bin/tsc')
  await promisify(execFile)(process.execPath, [
    tsc,
    resolve(root, 'engine/index.ts'),
    '--ignoreConfig',
    '--declaration',
    '--emitDeclarationOnly',
    '--allowImportingTsExtensions',
    '--strict',
    '--target',
    'ES2022',
    '--module',
    'ESNext',
    '--moduleResolution',
    'bundler',
    '--lib',
    'ES2022',
    '--types',
    '',
    '--skipLibCheck',
    '--rootDir',
    resolve(root, 'engine'),
    '--outDir',
    outDir,
  ])
  for (const entry of await readdir(outDir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.d.ts')) continue
    const file = join(entry.parentPath, entry.name)
    await writeFile(file, (await readFile(file, 'utf8')).replace(TS_SPECIFIER, '$1.js$2'))
  }
}

/** The Node entry is run for what it does; it exports nothing. */
const REGISTER_DECLARATIONS = "// Imported for its effect: `node --import repeat-tool-guard/register app.js` guards the process's fetch.\nexport {}\n"

/** npm runs a package's command as an executable file: it names its interpreter. */
const SHEBANG = '#!/usr/bin/env node\n'

export async function buildEnginePackage({ root, engineBuild, nodeBuild, inspectBuild, out }) {
  const built = join(engineBuild, 'index.js')
  if (!existsSync(built)) throw new Error(`no built engine at ${built}: build the engine target first`)
  const register = join(nodeBuild, 'register.js')
  if (!existsSync(register)) throw new Error(`no built Node entry at ${register}: build the node target first`)
  const cli = join(inspectBuild, 'cli.js')
  if (!existsSync(cli)) throw new Error(`no built inspector at ${cli}: build the inspect target first`)
  const { version, license, engines } = JSON.parse(await readFile(join(root, 'package.json'), 'utf8'))
  await rm(out, { recursive: true, force: true })
  await mkdir(join(out, 'engine'), { recursive: true })
  await cp(built, join(out, 'engine/index.js'))
  await emitDeclarations(root, join(out, 'engine'))
  await cp(register, join(out, 'register.js'))
  await writeFile(join(out, 'register.d.ts'), REGISTER_DECLARATIONS)
  await cp(inspectBuild, join(out, 'inspect'), { recursive: true })
  const command = await readFile(cli, 'utf8')
  if (!command.startsWith('#!')) await writeFile(join(out, 'inspect/cli.js'), SHEBANG + command)
  const manifest = {
    name: 'repeat-tool-guard',
    version,
    description: 'The Repeat Tool Guard engine: an advisory loop breaker for LLM agents (browsers and Node 20+).',
    license,
    type: 'module',
    exports: {
      './engine': { types: './engine/index.d.ts', default: './engine/index.js' },
      './register': { types: './register.d.ts', default: './register.js' },
    },
    bin: { 'repeat-tool-guard': './inspect/cli.js' },
    files: ['engine', 'register.js', 'register.d.ts', 'inspect'],
    sideEffects: ['./register.js'],
    engines,
  }
  await writeFile(join(out, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`)
  await writeFile(
    join(out, 'README.md'),
    [
      '# repeat-tool-guard',
      '',
      'The Repeat Tool Guard engine: it counts identical consecutive tool calls per agent and hands the',
      'model a reminder at 3, 5 and 8 by default. It never blocks or rewrites a call.',
      '',
      '```js',
      "import { createRepeatToolGuard, RECOMMENDED_CONFIG } from 'repeat-tool-guard/engine'",
      '',
      'const guard = createRepeatToolGuard(RECOMMENDED_CONFIG)',
      'const d = await guard.postExecute({ agent, name, arguments: args }, { isError, denied })',
      'for (const m of d.additionalContexts ?? []) history.push(m)',
      '```',
      '',
      'A Node agent that never calls it is guarded with no code (Node 20+): every LLM request it sends',
      'through the global `fetch` gets the same reminders.',
      '',
      '```sh',
      'node --import repeat-tool-guard/register app.js',
      'NODE_OPTIONS="--import repeat-tool-guard/register" next dev',
      '```',
      '',
    ].join('\n'),
  )
}
