// `npx repeat-tool-guard inspect` (docs/node-bridge.md, "Without the extension"): the built package's
// command, started next to a registered Node process, serves the panel as a plain page that Chromium
// without the extension opens; it shows the process's agent, its calls and reminders live, and a
// config applied in its editor changes the reminders of the process's next run.
import { execFile } from 'node:child_process'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { GENTLE } from '../../fixtures/wire/reminders.ts'
import { type Browser, DIST_DIR, launch } from '../support/browser.ts'
import { ANSWER, configShown, detailedAt, freePort, useServedApp } from './served-app.ts'

/** The file the package's `bin` names, as built: what `npx repeat-tool-guard` runs. */
const CLI = join(DIST_DIR, 'engine-package/inspect/cli.js')

const app = useServedApp()
let browser: Browser
let inspector: ReturnType<typeof execFile> | undefined
let inspectorUrl = ''

beforeAll(async () => {
  const port = await freePort()
  const started = execFile(process.execPath, [CLI, 'inspect', String(app.bridgePort)], { env: { ...process.env, REPEAT_TOOL_GUARD_INSPECT_PORT: String(port) } })
  inspector = started
  const said = await new Promise<string>((done, fail) => {
    started.stderr!.once('data', (text: string) => done(String(text)))
    started.once('exit', (code) => fail(new Error(`inspect exited (${code})`)))
  })
  inspectorUrl = /http:\/\/127\.0\.0\.1:\d+\/\S*/.exec(said)?.[0] ?? ''
  browser = await launch({ extension: false })
}, 60_000)

afterAll(async () => {
  inspector?.kill()
  await browser?.close()
})

const run = async () => expect(((await (await fetch(`${app.origin}/run`)).json()) as { answer: string }).answer).toBe(ANSWER)

it('shows the process’s agent, its calls and reminders in a plain page, and applies a config edited there to the next run', { timeout: 90_000 }, async () => {
  expect(inspectorUrl).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:\\d+/\\?bridge=${app.bridgePort}$`))
  const page = await browser.context.newPage()
  // Tall enough that the timeline draws every row of two runs: it draws only the rows in view.
  await page.setViewportSize({ width: 1280, height: 2400 })
  await page.goto(inspectorUrl)
  try {
    const badge = page.getByTestId('agent-frame').filter({ hasText: `server · pid ${app.pid} · node ` })
    await run()
    await badge.first().waitFor({ timeout: 15_000 })
    await expect.poll(() => page.getByTestId('reminder-text').allTextContents(), { timeout: 15_000 }).toEqual([GENTLE, detailedAt(5)])
    expect(await page.getByTestId('call-tool').allTextContents()).toEqual(Array(6).fill('read_file'))

    await page.getByTestId('tab-config').click()
    await page.getByTestId('config-input').fill(JSON.stringify({ thresholds: [2, 4] }))
    await page.getByTestId('config-apply').click()
    // The process says what it runs once it applied the config: the next run starts after that.
    await expect.poll(() => configShown(page, app.pid), { timeout: 15_000 }).toEqual(['thresholds 2, 4'])
    await run()
    await page.getByTestId('tab-timeline').click()
    await expect.poll(() => page.getByTestId('reminder-text').allTextContents(), { timeout: 15_000 }).toEqual([GENTLE, detailedAt(5), GENTLE, detailedAt(4)])
  } finally {
    await page.close()
  }
})
