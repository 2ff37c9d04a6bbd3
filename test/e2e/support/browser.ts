// Launches Debian's Chromium with the built extension loaded, as a user would load it unpacked.
import { chromium, type BrowserContext, type Page, type Worker } from 'playwright-core'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { existsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'

export const DIST_DIR = resolve(process.env.RTG_DIST_DIR ?? resolve(import.meta.dirname, '../../../dist'))
export const EXTENSION_DIR = resolve(DIST_DIR, 'extension')

export function chromiumPath(): string {
  const path = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
  if (!existsSync(path)) throw new Error(`Chromium not found at ${path}: install it (apt-get install -y chromium) or set CHROMIUM_PATH`)
  return path
}

/** The switches every test browser starts with. */
export const BASE_ARGS = ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic']

export interface Browser {
  readonly context: BrowserContext
  /** Absent when launched without the extension. */
  readonly extensionId?: string
  /** The remote debugging endpoint (`http://127.0.0.1:<port>`), when launched with `devtools`. */
  readonly debuggingEndpoint?: string
  worker(): Promise<Worker>
  /** The tab id Chrome gave `page`, asked of the service worker. */
  tabId(page: Page): Promise<number>
  /** Opens the panel as an ordinary tab, inspecting `tabId`. */
  openPanel(tabId: number): Promise<Page>
  /**
   * The running service worker's own name: a random id it is given the first time it is asked
   * (in its memory, which a stopped worker loses). Chrome keeps a worker's target id across a
   * restart, so this is what tells a new instance from the old one.
   */
  workerInstance(): Promise<string>
  /**
   * Kills the service worker, as Chrome does to an idle one, and returns once it is gone: no worker
   * runs, or a new instance (another `workerInstance()`) does. Nothing it does wakes the worker
   * again (it opens no tab while one is open). `instance`: the worker's, when it cannot be asked
   * now (it is busy). Throws when there is no worker to stop, or it did not stop.
   */
  stopServiceWorker(instance?: string): Promise<void>
  close(): Promise<void>
}

export interface LaunchOptions {
  /** Load the built extension (the default). */
  readonly extension?: boolean
  /** Another unpacked extension to load instead of the build (a flood test's build, a benchmark's baseline). */
  readonly extensionDir?: string
  /** More command-line switches, e.g. `--host-resolver-rules` to serve pages under other host names. */
  readonly args?: readonly string[]
  /**
   * Open DevTools for every tab, as a user does, and listen for remote debugging on a free port:
   * the DevTools windows are then pages reachable through `debuggingEndpoint`.
   */
  readonly devtools?: boolean
}

export async function launch(options: LaunchOptions = {}): Promise<Browser> {
  const withExtension = options.extension ?? true
  const extensionDir = options.extensionDir ?? EXTENSION_DIR
  if (withExtension && !existsSync(join(extensionDir, 'manifest.json'))) throw new Error(`no built extension at ${extensionDir}: run npm run build`)
  const userDataDir = await mkdtemp(join(tmpdir(), 'rtg-e2e-'))
  const args = [
    ...BASE_ARGS,
    ...(withExtension ? [`--disable-extensions-except=${extensionDir}`, `--load-extension=${extensionDir}`] : []),
    ...(options.devtools ? ['--auto-open-devtools-for-tabs', '--remote-debugging-port=0'] : []),
    ...(options.args ?? []),
  ]
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: chromiumPath(),
    headless: true,
    args,
    ignoreDefaultArgs: ['--disable-extensions'],
  })
  const worker = async () => context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker', { timeout: 15_000 }))
  const extensionId = withExtension ? new URL((await worker()).url()).host : undefined
  const debuggingEndpoint = options.devtools ? await debuggingEndpointOf(userDataDir) : undefined

  async function tabId(page: Page): Promise<number> {
    // The extension holds no "tabs" permission, so tabs carry no url: find the page's tab as the
    // active one once the page is brought to the front.
    await page.bringToFront()
    const [tab] = await (await worker()).evaluate(() => chrome.tabs.query({ active: true, lastFocusedWindow: true }))
    if (tab?.id === undefined) throw new Error(`no tab for ${page.url()}`)
    return tab.id
  }

  async function openPanel(id: number): Promise<Page> {
    const page = await context.newPage()
    await page.goto(`chrome-extension://${extensionId}/panel.html?tabId=${id}`)
    return page
  }

  async function workerInstance(): Promise<string> {
    return (await worker()).evaluate(() => ((globalThis as { testInstance?: string }).testInstance ??= crypto.randomUUID()))
  }

  async function stopServiceWorker(instance?: string): Promise<void> {
    const stopping = instance ?? (await workerInstance())
    // A tab already open, if any: opening and closing one of our own would wake the worker again
    // (its tabs.onRemoved listener), and a test could no longer tell what woke it.
    const open = context.pages()[0]
    const page = open ?? (await context.newPage())
    try {
      const cdp = await context.newCDPSession(page)
      const workerTargets = async () => (await cdp.send('Target.getTargets')).targetInfos.filter((t) => t.type === 'service_worker' && t.url.startsWith(`chrome-extension://${extensionId}/`))
      const targets = await workerTargets()
      if (targets.length === 0) throw new Error('stopServiceWorker: the extension has no service worker to stop')
      for (const t of targets) await cdp.send('Target.closeTarget', { targetId: t.targetId })
      // A worker busy in a long task is killed only after a grace period (about 5 s in Chromium).
      const deadline = Date.now() + 20_000
      for (;;) {
        if ((await workerTargets()).length === 0) break
        const now = await Promise.race([workerInstance().catch(() => stopping), new Promise<string>((ok) => setTimeout(() => ok(stopping), 1_000))])
        if (now !== stopping) break
        if (Date.now() > deadline) throw new Error('stopServiceWorker: the service worker is still running after 20 s')
        await new Promise((ok) => setTimeout(ok, 100))
      }
      await cdp.detach()
    } finally {
      if (!open) await page.close()
    }
  }

  return {
    context,
    extensionId,
    debuggingEndpoint,
    worker,
    tabId,
    openPanel,
    workerInstance,
    stopServiceWorker,
    async close() {
      await context.close()
      await rm(userDataDir, { recursive: true, force: true })
    },
  }
}

/** Chromium writes the port it picked for `--remote-debugging-port=0` into the profile. */
async function debuggingEndpointOf(userDataDir: string): Promise<string> {
  const file = join(userDataDir, 'DevToolsActivePort')
  for (let attempt = 0; attempt < 100; attempt++) {
    const port = existsSync(file) ? (await readFile(file, 'utf8')).split('\n')[0] : ''
    if (port) return `http://127.0.0.1:${port}`
    await new Promise((ok) => setTimeout(ok, 100))
  }
  throw new Error(`Chromium wrote no DevToolsActivePort in ${userDataDir}`)
}

/**
 * Has the extension's service worker run once. Until a freshly installed worker has run, the
 * browser does not know which tab events it listens to, and drops them: a test of what the worker
 * hears of tabs starts from a running extension, as a user does.
 */
export async function wakeWorker(browser: Browser): Promise<void> {
  await (await browser.worker()).evaluate(() => chrome.runtime.id)
}
