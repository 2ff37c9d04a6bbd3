// The built engine as an agent author consumes it: `repeat-tool-guard/engine` in Node 20 (through
// the package's exports) and `dist/engine/index.js` as a module script in Chromium.
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { launch, DIST_DIR, type Browser } from '../support/browser.ts'
import { serve, type TestServer } from '../support/server.ts'

const ROOT = resolve(import.meta.dirname, '../../..')

// Five identical calls, then the same tool with other arguments: what the model would be handed.
const REPLAY = `
  const { createRepeatToolGuard, RECOMMENDED_CONFIG, GuardConfigError, canonicalArguments } = engine
  const guard = createRepeatToolGuard(RECOMMENDED_CONFIG)
  const agent = { name: 'author' }
  const out = []
  for (let i = 0; i < 6; i++) {
    const d = await guard.postExecute({ agent, name: 'grep', arguments: i < 5 ? { b: 1, a: 2 } : { a: 3 } }, {})
    out.push((d.additionalContexts ?? []).map((m) => m.content[0].text.split('\\n')[0]))
  }
  let error = ''
  try { createRepeatToolGuard({ threshold: [3] }) } catch (e) { error = (e instanceof GuardConfigError) + ' ' + e.key }
  return { out, error, canonical: canonicalArguments('{"b":1,"a":[2,1]}'), snapshot: guard.snapshot() }
`
const EXPECTED = {
  out: [[], [], ['You are repeating the exact same tool call with identical arguments. Carefully analyze the previous result before calling again: if the task is not complete, try a different approach or different arguments instead of repeating the call.'], [], ['Repeated tool call detected:'], []],
  error: 'true threshold',
  canonical: '{"a":[2,1],"b":1}',
  snapshot: [{ id: 1, label: 'author', tool: 'grep', canonicalArguments: '{"a":3}', count: 1, nextThreshold: 3 }],
}

describe('the built engine', () => {
  let browser: Browser
  let server: TestServer
  beforeAll(async () => {
    server = await serve([DIST_DIR])
    browser = await launch({ extension: false })
  })
  afterAll(async () => {
    await browser?.close()
    await server?.close()
  })

  it('is what the package exports as repeat-tool-guard/engine', async () => {
    const script = `console.log(import.meta.resolve('repeat-tool-guard/engine'))`
    const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT })
    expect(stdout.trim()).toBe(pathToFileURL(join(ROOT, 'dist/engine/index.js')).href)
  })

  it('runs in Node and guards a replay', async () => {
    // The build under test (RTG_DIST_DIR may move it away from dist/).
    const built = pathToFileURL(join(DIST_DIR, 'engine/index.js')).href
    const script = `const engine = await import('${built}'); console.log(JSON.stringify(await (async () => {${REPLAY}})()))`
    const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT })
    expect(JSON.parse(stdout)).toEqual(EXPECTED)
  })

  it('runs as an ES module in the browser', async () => {
    const page = await browser.context.newPage()
    await page.goto(`${server.origin}/engine/index.js`)
    const result = await page.evaluate(`(async () => { const engine = await import('${server.origin}/engine/index.js'); ${REPLAY} })()`)
    expect(result).toEqual(EXPECTED)
  })
})
