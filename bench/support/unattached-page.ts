// A bench page in a Chromium that no automation attaches to, as a user's tab runs when DevTools is
// closed. Playwright (as DevTools does when open) turns on the page's Network and Runtime domains;
// with both on, Chromium's record of each request costs every JavaScript frame between the page
// and `fetch` several percent of a large POST, a cost of DevTools' own, not of the frame
// (docs/development.md, "Benchmarks"). Here the page runs its measurement by itself and posts what
// it measured back to the server that served it: nothing inspects the page while it runs.
import { spawn } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { BASE_ARGS, chromiumPath, EXTENSION_DIR } from '../../test/e2e/support/browser.ts'
import { serve } from '../../test/e2e/support/server.ts'
import { benchRoundsSource } from './rounds.ts'

/** The page's first script: the native fetch, kept to post the outcome with, and uncaught errors posted as one. */
const KEEP_POST = `window.benchPost = window.fetch
window.addEventListener('error', (event) => window.benchPost('/result', { method: 'POST', body: JSON.stringify({ ok: false, reason: String(event.message) }) }))`

/** How long a page may measure before the run is given up. */
const LONGEST_MS = 300_000

/**
 * Opens `head` (the page's own scripts, which may load `/page.js`) in a fresh Chromium with no
 * extension and nothing attached, runs `measure(input)` in it with `window.benchRounds` installed
 * (rounds.ts), and returns what it resolved with. `/api/...` answers with a small JSON response.
 */
export async function measureUnattached<I, O>(head: string, measure: (input: I) => Promise<O>, input: I): Promise<O> {
  const server = await serve([EXTENSION_DIR])
  const dir = await mkdtemp(join(tmpdir(), 'rtg-bench-unattached-'))
  let settle: (outcome: { ok: true; value: O } | { ok: false; reason: string }) => void = () => undefined
  const outcome = new Promise<{ ok: true; value: O } | { ok: false; reason: string }>((done) => (settle = done))
  const script = `${benchRoundsSource()};
(${measure.toString()})(${JSON.stringify(input)}).then(
  (value) => ({ ok: true, value }),
  (error) => ({ ok: false, reason: String(error && error.stack || error) }),
).then((outcome) => window.benchPost('/result', { method: 'POST', body: JSON.stringify(outcome) }))`
  server.route((req, res, body) => {
    const path = req.url ?? ''
    if (path === '/bench.html') {
      // The page keeps the native fetch to post its outcome with, before its own scripts run; an
      // error no promise catches (a script that does not parse) is posted at once, as a failure.
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' })
      res.end(`<!doctype html><script>${KEEP_POST}</script>${head}<script>${script}</script>`)
    } else if (path === '/result') {
      res.writeHead(204).end()
      settle(JSON.parse(body.toString('utf8')) as { ok: true; value: O } | { ok: false; reason: string })
    } else if (path.startsWith('/api/')) {
      res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' }).end('{"ok":true}')
    } else return false
    return true
  })
  // A process group of its own, so that its helpers end with it and leave its profile alone.
  const browser = spawn(chromiumPath(), [...BASE_ARGS, `--user-data-dir=${dir}`, `${server.origin}/bench.html`], { stdio: 'ignore', detached: true })
  const exited = new Promise<void>((done) => browser.once('exit', () => done()))
  const timer = setTimeout(() => settle({ ok: false, reason: `the page measured nothing within ${LONGEST_MS / 1000} s` }), LONGEST_MS)
  browser.once('exit', (code) => settle({ ok: false, reason: `Chromium exited (${code}) before the page posted what it measured` }))
  try {
    const result = await outcome
    if (!result.ok) throw new Error(result.reason)
    return result.value
  } finally {
    clearTimeout(timer)
    if (browser.exitCode === null && browser.pid !== undefined) process.kill(-browser.pid, 'SIGKILL')
    await exited
    await server.close()
    await rm(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 })
  }
}
