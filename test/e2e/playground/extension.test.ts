// The playground with the extension installed: the agent uses window.__REPEAT_TOOL_GUARD__, the
// extension's zero-code mode sees the same requests and must not guard them a second time.
import { describe, expect, test } from 'vitest'
import { EXPECTED_REMINDERS } from './expectations.ts'
import { expectEngineTexts, expectToolResultsUnaltered, readTranscript, reminderMarks, runScenario, expectScenario, usePlayground } from './playground-page.ts'

const session = usePlayground({ extension: true })

describe('playground with the extension', () => {
  test('uses the extension guard and says so', async () => {
    await session.page.goto(`${session.server.origin}/`)
    await expect.poll(() => session.page.getByTestId('guard-status').getAttribute('data-via')).toBe('extension')
    await expect.poll(() => session.page.getByTestId('inspector-extension').isVisible()).toBe(true)
  })

  for (const id of Object.keys(EXPECTED_REMINDERS)) {
    test(`${id}: each reminder once, from the extension, where the engine puts it`, () => expectScenario(session, id, 'extension'))
  }

  test("the extension's panel shows the playground's agents", async () => {
    await runScenario(session.page, session.server.origin, 'subagent')
    const panel = await session.browser.openPanel(await session.browser.tabId(session.page))
    try {
      await expect.poll(() => panel.getByTestId('agent-label').allTextContents()).toEqual(['lead', 'explorer'])
    } finally {
      await panel.close()
    }
  })

  test('stubborn with the guard switched off: the zero-code mode guards the requests on the wire instead', async () => {
    const state = await runScenario(session.page, session.server.origin, 'stubborn', { guard: false })
    await expect.poll(() => session.page.getByTestId('guard-status').getAttribute('data-via')).toBe('off')
    const rows = (await readTranscript(session.page))[0]!.rows
    expect(rows.filter((r) => r.kind === 'reminder')).toEqual([])
    expect(reminderMarks(rows)).toEqual(['3:gentle'])
    expect(rows.filter((r) => r.kind === 'wire-inserted')).toHaveLength(1)
    expect(state).toBe('answered')
    expectEngineTexts(rows)
    await expectToolResultsUnaltered(rows)
  })
})
