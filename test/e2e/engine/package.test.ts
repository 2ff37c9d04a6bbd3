// The built engine as an agent author consumes it: `repeat-tool-guard/engine` in Node 20 (through
// the package's exports) and `dist/engine/index.js` as a module script in Chromium.
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { launch, DIST_DIR, type Browser } from '../support/browser.ts'
import { serve, type TestServer } from '../support/server.ts'
import { EXPECTED, REPLAY } from './replay.ts'

const ROOT = resolve(import.meta.dirname, '../../..')

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
