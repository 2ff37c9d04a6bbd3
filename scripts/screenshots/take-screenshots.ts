// The pictures in docs/images/, taken from the build as it is (scripts/screenshots.mjs builds it
// first) with the end-to-end tests' own harness: the playground served locally, the extension loaded
// in real Chromium, a looping scenario run, and the panel shown inside the DevTools window that
// Chromium opens for the tab, the way a user reaches it (docs/development.md, "Screenshots").
import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import type { Frame, Page } from 'playwright-core'
import { DIST_DIR, launch, type Browser } from '../../test/e2e/support/browser.ts'
import { devToolsFor } from '../../test/e2e/support/devtools.ts'
import { serve, type TestServer } from '../../test/e2e/support/server.ts'

/** A scenario whose lead agent and subagent both loop: two agents, their runs and their reminders. */
const SCENARIO = 'subagent'
/** What either picture waits for before it is taken, at most. */
const PATIENCE_MS = 30_000
const VIEWPORT = { width: 1280, height: 800 }
/** The run-status states a run ends in (playground/ui/run-status.tsx). */
const FINISHED = ['answered', 'step-limit', 'failed', 'stopped']

/** Polls `read` until `done` holds of its answer; throws, saying `what`, after PATIENCE_MS. */
async function until<T>(what: string, read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + PATIENCE_MS
  for (;;) {
    const value = await read().catch(() => undefined)
    if (value !== undefined && done(value)) return value
    if (Date.now() > deadline) throw new Error(`screenshots: gave up waiting for ${what} (last seen: ${JSON.stringify(value)})`)
    await new Promise((ok) => setTimeout(ok, 100))
  }
}

/** Runs the scenario in `page` and waits until the agent has answered. */
async function runScenario(page: Page, server: TestServer): Promise<void> {
  await page.goto(`${server.origin}/?scenario=${SCENARIO}&autorun=1`)
  const state = await until(
    'the scenario to finish',
    () => page.getByTestId('run-status').getAttribute('data-state'),
    (s) => FINISHED.includes(s ?? ''),
  )
  if (state !== 'answered') throw new Error(`screenshots: the ${SCENARIO} scenario ended "${state}", not "answered"`)
}

const count = (frame: Frame | Page, testId: string) => frame.locator(`[data-testid=${testId}]`).count()

/** The part of DevTools' frontend this script reads (the e2e helper loads it in the DevTools page). */
type FrontendWindow = { __rtgFrontend: { UI: { InspectorView: { InspectorView: { instance(): { element: Element } } } } } }

/**
 * The panel in the DevTools window of the playground's tab, once it shows both agents and their
 * reminders. DevTools is docked beside the page, and its window leaves the page's part blank (the
 * browser draws the page there): the page, taken at the size DevTools leaves it, is laid into that
 * part by `compose`, a page of the browser without the extension.
 */
async function panelInDevTools(browser: Browser, compose: Browser, server: TestServer, file: string): Promise<void> {
  const page = await browser.context.newPage()
  await page.goto(`${server.origin}/`)
  const devtools = await devToolsFor(browser.debuggingEndpoint!, page.url())
  try {
    await devtools.page.setViewportSize(VIEWPORT)
    // The page at the size DevTools leaves it, before the run: DevTools marks a resize on the page for a moment.
    const pageWidth = await devtools.page.evaluate(() =>
      Math.round((globalThis as unknown as FrontendWindow).__rtgFrontend.UI.InspectorView.InspectorView.instance().element.getBoundingClientRect().left),
    )
    await page.setViewportSize({ width: pageWidth, height: VIEWPORT.height })
    await runScenario(page, server)
    await devtools.showPanel(`chrome-extension://${browser.extensionId}RepeatToolGuard`)
    const panel = await devtools.panelFrame('/panel.html')
    await until(
      'both agents in the panel',
      () => count(panel, 'agent-label'),
      (n) => n === 2,
    )
    // The subagent, whose run reached two reminders: its chain view and its log. Selected with the
    // row's click event: once the page was resized under DevTools, mouse input no longer reaches the
    // panel's frame in headless Chromium.
    const selectExplorer = async () => {
      if ((await count(panel, 'chain-view')) === 0) await panel.locator('[data-testid=agent-row]').nth(1).dispatchEvent('click')
      return count(panel, 'chain-view')
    }
    await until('the chain view', selectExplorer, (n) => n === 1)
    await until(
      'the reminders',
      () => count(panel, 'reminder-text'),
      (n) => n >= 2,
    )
    const [shown, tools] = [await page.screenshot(), await devtools.page.screenshot()]
    const canvas = await compose.context.newPage()
    try {
      await canvas.setViewportSize(VIEWPORT)
      const png = (image: Buffer) => `url(data:image/png;base64,${image.toString('base64')})`
      await canvas.setContent(`<body style="margin:0;width:${VIEWPORT.width}px;height:${VIEWPORT.height}px;background:${png(shown)} no-repeat 0 0,${png(tools)} no-repeat 0 0"></body>`)
      await canvas.screenshot({ path: file })
    } finally {
      await canvas.close()
    }
  } finally {
    await devtools.disconnect()
  }
}

/** The playground after the scenario, in a browser without the extension: its own guard and inline panel. */
async function playground(browser: Browser, server: TestServer, file: string): Promise<void> {
  const page = await browser.context.newPage()
  await page.setViewportSize(VIEWPORT)
  await runScenario(page, server)
  await until(
    'the inline panel',
    () => count(page, 'inspector'),
    (n) => n === 1,
  )
  await page.screenshot({ path: file })
}

/** Writes panel-in-devtools.png and playground.png into `dir`. */
export async function takeScreenshots(dir: string): Promise<string[]> {
  await mkdir(dir, { recursive: true })
  const server = await serve([join(DIST_DIR, 'playground')])
  const withExtension = await launch({ devtools: true })
  const without = await launch({ extension: false })
  const files = [join(dir, 'panel-in-devtools.png'), join(dir, 'playground.png')] as const
  try {
    await panelInDevTools(withExtension, without, server, files[0])
    await playground(without, server, files[1])
    return [...files]
  } finally {
    await Promise.all([withExtension.close(), without.close()])
    await server.close()
  }
}
