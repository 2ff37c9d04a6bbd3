// A bench page in a Chromium that no automation attaches to, as a user's tab runs when DevTools is
// closed. Playwright (as DevTools does when open) turns on the page's Network and Runtime domains;
// with both on, Chromium's record of each request makes a JavaScript frame between the page and
// `fetch` cost a few percent of a large POST, a cost of the recording, not of the frame
// (docs/development.md, "Benchmarks"). Here the page runs its measurement by itself, once it has
// loaded, and posts what it measured back to the server that served it: nothing inspects the page
// while it runs.
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { BASE_ARGS, chromiumPath, EXTENSION_DIR } from '../../test/e2e/support/browser.ts'
import { serve, type TestServer } from '../../test/e2e/support/server.ts'
import { apiRoute } from './api-route.ts'
import { benchRoundsSource } from './rounds.ts'

/** How long a page may measure before the run is given up. */
const MEASURE_TIMEOUT_MS = 300_000

type Outcome<O> = { readonly ok: true; readonly value: O } | { readonly ok: false; readonly reason: string }

/**
 * The page's first script: the native fetch, kept to post the outcome with (`benchReport`), and
 * every uncaught error or unhandled rejection posted at once as a failed outcome (`benchFail`): a
 * script that does not parse fails the run then, not at the timeout.
 */
const REPORTER_SCRIPT = `(() => {
  const post = window.fetch
  const report = (window.benchReport = (outcome) => post('/result', { method: 'POST', body: JSON.stringify(outcome) }))
  const fail = (window.benchFail = (error) => report({ ok: false, reason: String((error && error.stack) || error) }))
  window.addEventListener('error', (event) => fail(event.error || event.message))
  window.addEventListener('unhandledrejection', (event) => fail(event.reason))
})()`

/** The script that runs `measure(input)` once the page has loaded, and posts its outcome. */
function measuringScript<I, O>(measure: (input: I) => Promise<O>, input: I): string {
  // Escaped so that no text of the input closes the script it is written into.
  const inputText = JSON.stringify(input).replace(/</g, '\\u003c')
  return `${benchRoundsSource()};
window.addEventListener('load', () => (${measure.toString()})(${inputText}).then((value) => window.benchReport({ ok: true, value }), window.benchFail))`
}

interface UnattachedOptions {
  /** More folders served at the root, before the built extension's. */
  readonly roots?: readonly string[]
}

/**
 * Opens a page of `scripts` (the page's own, which may load `/page.js`) in a fresh Chromium with no
 * extension and nothing attached, runs `measure(input)` in it once it has loaded, with
 * `window.benchRounds` installed (rounds.ts), and returns what it resolved with. `/api/...`
 * answers with a small JSON response (api-route.ts).
 */
export async function measureUnattached<I, O>(scripts: string, measure: (input: I) => Promise<O>, input: I, options: UnattachedOptions = {}): Promise<O> {
  let settle: (outcome: Outcome<O>) => void = () => undefined
  const outcome = new Promise<Outcome<O>>((done) => (settle = done))
  const page = `<!doctype html><script>${REPORTER_SCRIPT}</script>${scripts}<script>${measuringScript(measure, input)}</script>`
  let server: TestServer | undefined
  let profileDir: string | undefined
  let browser: ChildProcess | undefined
  let exited: Promise<void> = Promise.resolve()
  // Its whole process group, so that its helpers end with it and leave its profile alone.
  const stopBrowser = () => {
    if (browser?.pid === undefined) return
    try {
      process.kill(-browser.pid, 'SIGKILL')
    } catch {
      // The group has ended already.
    }
  }
  // A bench stopped from outside (Ctrl+C, the runner's SIGTERM) takes its browser with it.
  const stopAndRaise = (signal: NodeJS.Signals) => {
    stopBrowser()
    process.kill(process.pid, signal)
  }
  process.once('exit', stopBrowser)
  process.once('SIGINT', stopAndRaise)
  process.once('SIGTERM', stopAndRaise)
  const timer = setTimeout(() => settle({ ok: false, reason: `the page measured nothing within ${MEASURE_TIMEOUT_MS / 1000} s` }), MEASURE_TIMEOUT_MS)
  try {
    server = await serve([...(options.roots ?? []), EXTENSION_DIR])
    server.route((req, res, body) => {
      if (req.url === '/bench.html') res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(page)
      else if (req.url === '/result') {
        res.writeHead(204).end()
        try {
          settle(JSON.parse(body.toString('utf8')) as Outcome<O>)
        } catch (error) {
          settle({ ok: false, reason: `the page posted an outcome that is not JSON: ${String(error)}` })
        }
      } else return apiRoute(req, res, body)
      return true
    })
    profileDir = await mkdtemp(join(tmpdir(), 'rtg-bench-unattached-'))
    const started = spawn(chromiumPath(), [...BASE_ARGS, `--user-data-dir=${profileDir}`, `${server.origin}/bench.html`], { stdio: 'ignore', detached: true })
    browser = started
    exited = new Promise<void>((done) => {
      started.once('error', (error) => {
        settle({ ok: false, reason: `Chromium did not start: ${error.message}` })
        done()
      })
      started.once('exit', (code, signal) => {
        settle({ ok: false, reason: `Chromium ended (${code ?? signal}) before the page posted what it measured` })
        done()
      })
    })
    const result = await outcome
    if (!result.ok) throw new Error(result.reason)
    return result.value
  } finally {
    clearTimeout(timer)
    stopBrowser()
    await exited
    process.off('exit', stopBrowser)
    process.off('SIGINT', stopAndRaise)
    process.off('SIGTERM', stopAndRaise)
    await server?.close()
    if (profileDir !== undefined) await rm(profileDir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 })
  }
}
