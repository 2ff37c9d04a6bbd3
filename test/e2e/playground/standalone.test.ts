// The playground without the extension: its own engine guards the agent, its inspector is inline.
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
  waitForRun,
} from './playground-page.ts'

let browser: Browser
let server: TestServer
let page: Page

beforeAll(async () => {
  ;[browser, server] = await Promise.all([launch({ extension: false }), servePlayground()])
  page = await browser.context.newPage()
})
afterAll(async () => {
  await browser?.close()
  await server?.close()
})

describe('standalone playground', () => {
  test('says it runs its own engine', async () => {
    await page.goto(`${server.origin}/`)
    await expect.poll(() => page.getByTestId('guard-status').getAttribute('data-via')).toBe('playground')
    expect(await page.getByTestId('scenario').inputValue()).toBe('replay-5')
  })

  for (const [id, expected] of Object.entries(EXPECTED_REMINDERS)) {
    test(`${id}: reminders land where the engine puts them, tool results untouched`, async () => {
      expect(await runScenario(page, server.origin, id)).toBe('answered')
      const conversations = await readTranscript(page)
      expect(conversations.map((c) => c.agent)).toEqual(Object.keys(expected))
      for (const { agent, rows, status } of conversations) {
        expect(status).toBe('answered')
        expect(reminderMarks(rows), agent).toEqual(expected[agent])
        const reminders = rows.filter((r) => r.kind === 'reminder')
        expect(reminders.every((r) => r.via === 'playground')).toBe(true)
        expect(rows.filter((r) => r.kind === 'wire-inserted')).toEqual([])
        expectRemindersAfterStepResults(rows)
        expectEngineTexts(rows)
        await expectToolResultsUnaltered(rows)
      }
    })
  }

  test('replay-5: gentle after the third result, detailed after the fifth, marked with their source', async () => {
    await runScenario(page, server.origin, 'replay-5')
    const { rows } = (await readTranscript(page))[0]!
    const reminders = rows.filter((r) => r.kind === 'reminder')
    expect(reminders.map((r) => r.summary)).toEqual(['read_file × 3', 'read_file × 5'])
    expect(reminders[1]!.text).toContain('- tool: read_file\n- consecutive_calls: 5\n- arguments: {"path":"src/format.ts"}')
  })

  test('stubborn: guard on it changes approach, guard off it runs into the step limit', async () => {
    expect(await runScenario(page, server.origin, 'stubborn')).toBe('answered')
    const on = (await readTranscript(page))[0]!.rows
    expect(on.flatMap((r) => r.calls.map((c) => c.name))).toEqual(['run_tests', 'run_tests', 'run_tests', 'read_file', 'write_file', 'run_tests'])

    expect(await runScenario(page, server.origin, 'stubborn', { guard: false })).toBe('step-limit')
    await expect.poll(() => page.getByTestId('guard-status').getAttribute('data-via')).toBe('off')
    const off = (await readTranscript(page))[0]!.rows
    expect(off.filter((r) => r.kind === 'reminder' || r.kind === 'wire-inserted')).toEqual([])
    expect(new Set(off.flatMap((r) => r.calls.map((c) => c.name)))).toEqual(new Set(['run_tests']))
  })

  test('denied: allowing delete_path lets the first call through', async () => {
    await page.goto(`${server.origin}/?scenario=denied`)
    await page.getByTestId('allow-delete').check()
    await page.getByTestId('run').click()
    expect(await waitForRun(page)).toBe('answered')
    const rows = (await readTranscript(page))[0]!.rows
    expect(rows.filter((r) => r.kind === 'tool-result').map((r) => [r.tool, r.denied, r.text])).toEqual([['delete_path', false, 'Deleted build (2 files)']])
    await expectToolResultsUnaltered(rows, { allowDelete: true })
  })

  test('a follow-up prompt starts the chain over', async () => {
    await runScenario(page, server.origin, 'replay-5')
    await page.getByTestId('follow-up').fill('Read it again, please.')
    await page.getByTestId('send').click()
    expect(await waitForRun(page)).toBe('answered')
    const rows = (await readTranscript(page))[0]!.rows
    expect(rows.filter((r) => r.kind === 'prompt').map((r) => r.text)).toEqual(['Why does formatDate print 2024-3-7 instead of 2024-03-07?', 'Read it again, please.'])
    expect(reminderMarks(rows)).toEqual(['3:gentle', '5:detailed', '8:gentle', '10:detailed'])
  })

  test('the inline inspector shows the agents, subagent under its lead, and the reminders', async () => {
    await runScenario(page, server.origin, 'subagent')
    const inspector = page.getByTestId('inspector-inline')
    await expect.poll(() => inspector.getByTestId('agent-label').allTextContents()).toEqual(['lead', 'explorer'])
    await expect.poll(() => inspector.locator('[data-testid="timeline-row"][data-kind="reminder"]').count()).toBe(3)
  })

  test("the config editor validates with the engine and applies to the playground's guard", async () => {
    await page.goto(`${server.origin}/?scenario=replay-5`)
    const inspector = page.getByTestId('inspector-inline')
    await inspector.getByTestId('tab-config').click()
    const input = inspector.getByTestId('config-input')
    await input.fill('{ "thresholds": [1] }')
    await expect.poll(() => inspector.getByTestId('config-error').textContent()).toBe('thresholds[0] must be an integer >= 2, got 1')
    expect(await inspector.getByTestId('config-apply').isDisabled()).toBe(true)
    await input.fill('{ "thresholds": [4, 2], "exclude": ["todo_write"] }')
    await inspector.getByTestId('config-apply').click()
    await expect.poll(() => inspector.getByTestId('config-in-force-thresholds').textContent()).toContain('2')
    await page.getByTestId('run').click()
    expect(await waitForRun(page)).toBe('answered')
    expect(reminderMarks((await readTranscript(page))[0]!.rows)).toEqual(['2:gentle', '4:detailed'])
  })

  test('an unknown scenario in the URL says so and runs nothing', async () => {
    await page.goto(`${server.origin}/?scenario=nope&autorun=1`)
    await expect.poll(() => page.getByRole('alert').first().textContent()).toContain('There is no scenario "nope"')
    expect(await page.getByTestId('run-status').getAttribute('data-state')).toBe('idle')
  })
})
