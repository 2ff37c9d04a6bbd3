// The engine as a new user gets it: the tarball `npm pack` makes of the engine package, installed
// into a fresh project with `npm install <tarball>`, then imported as `repeat-tool-guard/engine`
// from JavaScript in Node and type-checked from TypeScript with `nodenext` and `bundler`
// resolution, `skipLibCheck` off; and its Node entry run as `node --import repeat-tool-guard/register`.
import { execFile } from 'node:child_process'
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { DIST_DIR } from '../support/browser.ts'
import { GENTLE } from '../../fixtures/wire/reminders.ts'
import { EXPECTED, REPLAY } from './replay.ts'

const run = promisify(execFile)
const TSC = resolve(import.meta.dirname, '../../../node_modules/typescript/bin/tsc')

let project: string
let packed: { files: { path: string }[]; filename: string }

// What a TypeScript user writes; `@ts-expect-error` lines fail the check if the types were loose.
const USE_TS = `
import { createRepeatToolGuard, RECOMMENDED_CONFIG, GuardConfigError, canonicalArguments, type GuardConfig, type ReminderMessage } from 'repeat-tool-guard/engine'

const config: GuardConfig = RECOMMENDED_CONFIG
const guard = createRepeatToolGuard(config)
const agent = { name: 'typed' }
export async function step(): Promise<string[]> {
  const d = await guard.postExecute({ agent, name: 'grep', arguments: { q: 'x' } }, { isError: false })
  const messages: readonly ReminderMessage[] = (d.additionalContexts ?? []) as readonly ReminderMessage[]
  return messages.map((m) => m.content[0].text)
}
export const key: string = canonicalArguments({ b: 1, a: 2 })
export const isConfigError = (e: unknown): boolean => e instanceof GuardConfigError
// @ts-expect-error thresholds is a list of numbers
createRepeatToolGuard({ thresholds: 'three' })
// @ts-expect-error the engine exports nothing by that name
import('repeat-tool-guard/engine').then((m) => m.notExported)
`

const tsconfig = (module: string, moduleResolution: string) => ({
  compilerOptions: { target: 'ES2022', module, moduleResolution, lib: ['ES2022'], types: [], strict: true, skipLibCheck: false, noEmit: true },
  files: ['use.ts'],
})

beforeAll(async () => {
  project = await mkdtemp(join(tmpdir(), 'rtg-consumer-'))
  const { stdout } = await run('npm', ['pack', join(DIST_DIR, 'engine-package'), '--pack-destination', project, '--json', '--silent'])
  ;[packed] = JSON.parse(stdout) as (typeof packed)[]
  await writeFile(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }))
  await run('npm', ['install', `./${packed.filename}`, '--no-audit', '--no-fund', '--silent'], { cwd: project })
  await writeFile(join(project, 'use.ts'), USE_TS)
  await writeFile(join(project, 'tsconfig.nodenext.json'), JSON.stringify(tsconfig('nodenext', 'nodenext')))
  await writeFile(join(project, 'tsconfig.bundler.json'), JSON.stringify(tsconfig('esnext', 'bundler')))
}, 120_000)

afterAll(async () => {
  if (project) await rm(project, { recursive: true, force: true })
})

test('the tarball holds the built module, its declarations, the Node entry and the inspector, nothing else', () => {
  const files = packed.files.map((f) => f.path).sort()
  expect(files).toContain('engine/index.js')
  expect(files).toContain('engine/index.d.ts')
  expect(files).toContain('inspect/inspector/inspect.html')
  expect(files.filter((f) => !/^engine\/([\w-]+\/)*[\w-]+\.(js|d\.ts)$/.test(f) && !f.startsWith('inspect/inspector/'))).toEqual([
    'README.md',
    'inspect/cli.js',
    'package.json',
    'register.d.ts',
    'register.js',
  ])
})

test('installs with no dependencies of its own', async () => {
  expect((await readdir(join(project, 'node_modules'))).filter((name) => !name.startsWith('.'))).toEqual(['repeat-tool-guard'])
})

test('works from JavaScript in Node as repeat-tool-guard/engine', async () => {
  const script = `const engine = await import('repeat-tool-guard/engine'); console.log(JSON.stringify(await (async () => {${REPLAY}})()))`
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: project })
  expect(JSON.parse(stdout)).toEqual(EXPECTED)
})

test.each(['nodenext', 'bundler'])('type-checks from TypeScript with %s resolution and skipLibCheck off', async (resolution) => {
  const result = await run(process.execPath, [TSC, '-p', `tsconfig.${resolution}.json`], { cwd: project }).catch((error: { stdout: string }) => error)
  expect(result.stdout).toBe('')
})

// An app that knows nothing of the guard: one Chat Completions request whose history holds three
// identical completed calls, to a local server that records the body it received.
const APP = `
import { createServer } from 'node:http'
const bodies = []
const server = createServer((req, res) => {
  let body = ''
  req.on('data', (chunk) => (body += chunk))
  req.on('end', () => (bodies.push(body), res.end('{}')))
})
await new Promise((ok) => server.listen(0, '127.0.0.1', ok))
const step = (n) => [
  { role: 'assistant', content: null, tool_calls: [{ id: 'call_' + n, type: 'function', function: { name: 'grep', arguments: '{"q":"x"}' } }] },
  { role: 'tool', tool_call_id: 'call_' + n, content: 'no match' },
]
const messages = [{ role: 'system', content: 'You search.' }, { role: 'user', content: 'Find x.' }, ...step(1), ...step(2), ...step(3)]
await fetch('http://127.0.0.1:' + server.address().port + '/v1/chat/completions', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model: 'm', messages }) })
server.close()
console.log(JSON.stringify(JSON.parse(bodies[0]).messages.slice(8)))
`

test('guards a Node app run with --import repeat-tool-guard/register, which exits by itself', async () => {
  await writeFile(join(project, 'app.mjs'), APP)
  const { stdout, stderr } = await run(process.execPath, ['--import', 'repeat-tool-guard/register', 'app.mjs'], { cwd: project, timeout: 20_000 })
  // The bridge listens on its default port, and the process still exits by itself.
  expect(stderr).toMatch(/^repeat-tool-guard: guard mode, thresholds 3\/5\/8 \(default config\); inspector bridge on ws:\/\/127\.0\.0\.1:8730 \(pid \d+\)\n$/)
  expect(JSON.parse(stdout)).toEqual([{ role: 'user', content: GENTLE }])
})

test('serves the panel as a page with its command, `repeat-tool-guard inspect`, to its own address only', async () => {
  const port = 18_000 + Math.floor(Math.random() * 2_000)
  // The command npx runs, started as npx starts it: the file the package's `bin` names.
  const inspector = execFile(join(project, 'node_modules/.bin/repeat-tool-guard'), ['inspect', '8730'], { cwd: project, env: { ...process.env, REPEAT_TOOL_GUARD_INSPECT_PORT: String(port) } })
  try {
    const said = await new Promise<string>((done, fail) => {
      inspector.stderr!.once('data', (text: string) => done(String(text)))
      inspector.once('exit', (code) => fail(new Error(`inspect exited (${code})`)))
    })
    expect(said).toContain(`http://127.0.0.1:${port}`)
    const page = await fetch(`http://127.0.0.1:${port}/`)
    expect([page.status, (await page.text()).includes('<script')]).toEqual([200, true])
    // Node's fetch lets a test set Host: a rebound name is refused.
    const { request } = await import('node:http')
    const status = await new Promise<number | undefined>((done) => request({ host: '127.0.0.1', port, path: '/', headers: { host: 'evil.example' } }, (r) => done(r.statusCode)).end())
    expect(status).toBe(403)
  } finally {
    inspector.kill()
  }
})
