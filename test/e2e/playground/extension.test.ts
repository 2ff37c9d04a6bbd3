// The playground with the extension installed: the agent uses window.__REPEAT_TOOL_GUARD__, the
// extension's zero-code mode sees the same requests and must not guard them a second time.
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { launch, type Browser } from '../support/browser.ts'
import type { TestServer } from '../support/server.ts'
import { EXPECTED_REMINDERS } from './expectations.ts'
import {
  expectEngineTexts,
  expectRemindersAfterStepResults,
  expectToolResultsUnaltered,
  readTranscript,
  reminderMarks,
  runScenario,
  servePlayground,
} from './playground-page.ts'

let browser: Browser
let server: TestServer
let page: Page

beforeAll(async () => {
  ;[browser, server] = await Promise.all([launch({ extension: true }), servePlayground()])
  page = await browser.context.newPage()
})
afterAll(async () => {
  await browser?.close()
  await server?.close()
})

describe('playground with the extension', () => {
  test('uses the extension guard and says so', async () => {
    await page.goto(`${server.origin}/`)
    await expect.poll(() => page.getByTestId('guard-status').getAttribute('data-via')).toBe('extension')
    await expect.poll(() => page.getByTestId('inspector-extension').isVisible()).toBe(true)
  })

  for (const [id, expected] of Object.entries(EXPECTED_REMINDERS)) {
    test(`${id}: each reminder once, from the extension, where the engine puts it`, async () => {
      expect(await runScenario(page, server.origin, id)).toBe('answered')
      const conversations = await readTranscript(page)
      expect(conversations.map((c) => c.agent)).toEqual(Object.keys(expected))
      for (const { agent, rows } of conversations) {
        expect(reminderMarks(rows), agent).toEqual(expected[agent])
        expect(rows.filter((r) => r.kind === 'reminder').every((r) => r.via === 'extension')).toBe(true)
        // Never guarded twice: the model received exactly what the page sent.
        expect(rows.filter((r) => r.kind === 'wire-inserted'), agent).toEqual([])
        expectRemindersAfterStepResults(rows)
        expectEngineTexts(rows)
        await expectToolResultsUnaltered(rows)
      }
    })
  }

  test("the extension's panel shows the playground's agents", async () => {
    await runScenario(page, server.origin, 'subagent')
    const panel = await browser.openPanel(await browser.tabId(page))
    try {
      await expect.poll(() => panel.getByTestId('agent-label').allTextContents(), { timeout: 10_000 }).toEqual(['lead', 'explorer'])
    } finally {
      await panel.close()
    }
  })

  test('stubborn with the guard switched off: the zero-code mode guards the requests on the wire instead', async () => {
    const state = await runScenario(page, server.origin, 'stubborn', { guard: false })
    await expect.poll(() => page.getByTestId('guard-status').getAttribute('data-via')).toBe('off')
    const rows = (await readTranscript(page))[0]!.rows
    expect(rows.filter((r) => r.kind === 'reminder')).toEqual([])
    expect(reminderMarks(rows)).toEqual(['3:gentle'])
    expect(rows.filter((r) => r.kind === 'wire-inserted')).toHaveLength(1)
    expect(state).toBe('answered')
    expectEngineTexts(rows)
    await expectToolResultsUnaltered(rows)
  })
})
