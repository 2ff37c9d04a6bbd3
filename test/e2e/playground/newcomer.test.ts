// A newcomer's path: `npm start` (build, then serve), open the URL it prints, press Run on the
// first scenario, see the reminder.
import { spawn, type ChildProcess } from 'node:child_process'
import { createServer } from 'node:net'
import { resolve } from 'node:path'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { DIST_DIR, launch, type Browser } from '../support/browser.ts'
import { waitForRun } from './playground-page.ts'

const ROOT = resolve(import.meta.dirname, '../../..')

function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const probe = createServer()
    probe.once('error', fail)
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number }
      probe.close(() => ok(port))
    })
  })
}

/** Runs `npm start` and resolves with everything it printed once the URL is out. */
function startServer(port: number): Promise<{ child: ChildProcess; output: string }> {
  // Its own process group, so that stopping it stops npm's children (the server) too.
  const child = spawn('npm', ['start'], { cwd: ROOT, detached: true, env: { ...process.env, PORT: String(port), RTG_DIST_DIR: DIST_DIR }, stdio: ['ignore', 'pipe', 'pipe'] })
  let output = ''
  return new Promise((ok, fail) => {
    const timer = setTimeout(() => fail(new Error(`npm start printed no URL:\n${output}`)), 50_000)
    const read = (chunk: Buffer) => {
      output += chunk.toString()
      if (/^Extension: .*$/m.test(output)) {
        clearTimeout(timer)
        ok({ child, output })
      }
    }
    child.stdout!.on('data', read)
    child.stderr!.on('data', read)
    child.once('exit', (code) => fail(new Error(`npm start exited (${code}):\n${output}`)))
  })
}

let browser: Browser
let server: { child: ChildProcess; output: string }
let page: Page

beforeAll(async () => {
  ;[browser, server] = await Promise.all([launch({ extension: false }), freePort().then(startServer)])
  page = await browser.context.newPage()
})
afterAll(async () => {
  await browser?.close()
  if (server?.child.pid) process.kill(-server.child.pid, 'SIGTERM')
})

test('npm start prints the URL and the extension; the first scenario shows a reminder', async () => {
  const url = /^Repeat Tool Guard playground: (http:\/\/localhost:\d+\/)$/m.exec(server.output)?.[1]
  expect(url).toBeDefined()
  expect(server.output).toContain(`Extension: ${resolve(DIST_DIR, 'extension')} (load it unpacked at chrome://extensions`)

  await page.goto(url!)
  expect(await page.getByTestId('scenario').inputValue()).toBe('replay-5')
  await page.getByTestId('run').click()
  expect(await waitForRun(page)).toBe('answered')
  const reminder = page.locator('li[data-kind="reminder"]').first()
  expect(await reminder.locator('pre.text').textContent()).toMatch(/^You are repeating the exact same tool call with identical arguments\./)
  expect(await reminder.getAttribute('data-summary')).toBe('read_file × 3')
})
