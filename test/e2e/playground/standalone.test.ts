// The playground without the extension: its own engine guards the agent, its panel is inline, on the page.
import { describe, expect, test } from 'vitest'
import { EXPECTED_REMINDERS } from './expectations.ts'
import { expectToolResultsUnaltered, readTranscript, reminderMarks, runScenario, waitForRun, expectScenario, usePlayground } from './playground-page.ts'

const session = usePlayground({ extension: false })

describe('standalone playground', () => {
  test('says it runs its own engine', async () => {
    await session.page.goto(`${session.server.origin}/`)
    await expect.poll(() => session.page.getByTestId('guard-status').getAttribute('data-via')).toBe('playground')
    expect(await session.page.getByTestId('scenario').inputValue()).toBe('replay-5')
  })

  for (const id of Object.keys(EXPECTED_REMINDERS)) {
    test(`${id}: reminders land where the engine puts them, tool results untouched`, () => expectScenario(session, id, 'playground'))
  }

  test('replay-5: gentle after the third result, detailed after the fifth, marked with their source', async () => {
    await runScenario(session.page, session.server.origin, 'replay-5')
    const { rows } = (await readTranscript(session.page))[0]!
    const reminders = rows.filter((r) => r.kind === 'reminder')
    expect(reminders.map((r) => r.summary)).toEqual(['read_file × 3', 'read_file × 5'])
    expect(reminders[1]!.text).toContain('- tool: read_file\n- consecutive_calls: 5\n- arguments: {"path":"src/format.ts"}')
  })

  test('stubborn: guard on it changes approach, guard off it runs into the step limit', async () => {
    expect(await runScenario(session.page, session.server.origin, 'stubborn')).toBe('answered')
    const on = (await readTranscript(session.page))[0]!.rows
    expect(on.flatMap((r) => r.calls.map((c) => c.name))).toEqual(['run_tests', 'run_tests', 'run_tests', 'read_file', 'write_file', 'run_tests'])

    expect(await runScenario(session.page, session.server.origin, 'stubborn', { guard: false })).toBe('step-limit')
    await expect.poll(() => session.page.getByTestId('guard-status').getAttribute('data-via')).toBe('off')
    const off = (await readTranscript(session.page))[0]!.rows
    expect(off.filter((r) => r.kind === 'reminder' || r.kind === 'wire-inserted')).toEqual([])
    expect(new Set(off.flatMap((r) => r.calls.map((c) => c.name)))).toEqual(new Set(['run_tests']))
  })

  test('denied: allowing delete_path lets the first call through', async () => {
    await session.page.goto(`${session.server.origin}/?scenario=denied`)
    await session.page.getByTestId('allow-delete').check()
    await session.page.getByTestId('run').click()
    expect(await waitForRun(session.page)).toBe('answered')
    const rows = (await readTranscript(session.page))[0]!.rows
    expect(rows.filter((r) => r.kind === 'tool-result').map((r) => [r.tool, r.denied, r.text])).toEqual([['delete_path', false, 'Deleted build (2 files)']])
    await expectToolResultsUnaltered(rows, { allowDelete: true })
  })

  test('a follow-up prompt starts the chain over', async () => {
    await runScenario(session.page, session.server.origin, 'replay-5')
    await session.page.getByTestId('follow-up').fill('Read it again, please.')
    await session.page.getByTestId('send').click()
    expect(await waitForRun(session.page)).toBe('answered')
    const rows = (await readTranscript(session.page))[0]!.rows
    expect(rows.filter((r) => r.kind === 'prompt').map((r) => r.text)).toEqual(['Why does formatDate print 2024-3-7 instead of 2024-03-07?', 'Read it again, please.'])
    expect(reminderMarks(rows)).toEqual(['3:gentle', '5:detailed', '8:gentle', '10:detailed'])
  })

  test('the inline panel shows the agents, subagent under its lead, and the reminders', async () => {
    await runScenario(session.page, session.server.origin, 'subagent')
    const inlinePanel = session.page.getByTestId('inspector-inline')
    await expect.poll(() => inlinePanel.getByTestId('agent-label').allTextContents()).toEqual(['lead', 'explorer'])
    await expect.poll(() => inlinePanel.locator('[data-testid="timeline-row"][data-kind="reminder"]').count()).toBe(3)
  })

  test("the config editor validates with the engine and applies to the playground's guard", async () => {
    await session.page.goto(`${session.server.origin}/?scenario=replay-5`)
    const inlinePanel = session.page.getByTestId('inspector-inline')
    await inlinePanel.getByTestId('tab-config').click()
    const input = inlinePanel.getByTestId('config-input')
    await input.fill('{ "thresholds": [1] }')
    await expect.poll(() => inlinePanel.getByTestId('config-error').textContent()).toBe('thresholds[0] must be an integer >= 2, got 1')
    expect(await inlinePanel.getByTestId('config-apply').isDisabled()).toBe(true)
    await input.fill('{ "thresholds": [4, 2], "exclude": ["todo_write"] }')
    await inlinePanel.getByTestId('config-apply').click()
    await expect.poll(() => inlinePanel.getByTestId('config-in-force-thresholds').textContent()).toContain('2')
    await session.page.getByTestId('run').click()
    expect(await waitForRun(session.page)).toBe('answered')
    expect(reminderMarks((await readTranscript(session.page))[0]!.rows)).toEqual(['2:gentle', '4:detailed'])
  })

  test('an unknown scenario in the URL says so and runs nothing', async () => {
    await session.page.goto(`${session.server.origin}/?scenario=nope&autorun=1`)
    await expect.poll(() => session.page.getByRole('alert').first().textContent()).toContain('There is no scenario "nope"')
    expect(await session.page.getByTestId('run-status').getAttribute('data-state')).toBe('idle')
  })
})
