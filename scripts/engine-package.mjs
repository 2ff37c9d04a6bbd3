// The engine as the package an agent author installs: `repeat-tool-guard`, whose only entry is
// `repeat-tool-guard/engine`, the built ES module with its declarations. It has no dependencies
// (the build inlines safe-stable-stringify and picomatch) and holds nothing a consumer does not load.
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

export async function buildEnginePackage({ root, engineBuild, out }) {
  const built = join(engineBuild, 'index.js')
  if (!existsSync(built)) throw new Error(`no built engine at ${built}: build the engine target first`)
  const { version, license, engines } = JSON.parse(await readFile(join(root, 'package.json'), 'utf8'))
  await rm(out, { recursive: true, force: true })
  await mkdir(join(out, 'engine'), { recursive: true })
  await cp(built, join(out, 'engine/index.js'))
  await emitDeclarations(root, join(out, 'engine'))
  const manifest = {
    name: 'repeat-tool-guard',
    version,
    description: 'The Repeat Tool Guard engine: an advisory loop breaker for LLM agents (browsers and Node 20+).',
    license,
    type: 'module',
    exports: { './engine': { types: './engine/index.d.ts', default: './engine/index.js' } },
    files: ['engine'],
    sideEffects: false,
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
    ].join('\n'),
  )
}
