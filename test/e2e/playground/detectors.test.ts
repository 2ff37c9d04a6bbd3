// The opt-in detectors end to end: a playground link sets the guard's options on the extension's
// page guard and runs the scenario; the model gets the reminder (or the block), and the panel
// shows it.
import type { Page } from 'playwright-core'
import { describe, expect, test } from 'vitest'
import { readTranscript, usePlayground, waitForRun } from './playground-page.ts'

const session = usePlayground({ extension: true })

async function runLink(scenario: string, preset: string): Promise<string> {
  await session.page.goto(`${session.server.origin}/?scenario=${scenario}&config=${preset}&autorun=1`)
  return waitForRun(session.page)
}

async function withPanel(check: (panel: Page) => Promise<void>): Promise<void> {
  const panel = await session.browser.openPanel(await session.browser.tabId(session.page))
  try {
    await check(panel)
  } finally {
    await panel.close()
  }
}

describe('the detectors through the extension', () => {
  test('ping-pong with cycles: the cycle reminder reaches the model once, from the extension, and the panel names it', async () => {
    expect(await runLink('ping-pong', 'cycles')).toBe('answered')
    const [conversation] = await readTranscript(session.page)
    const reminders = conversation!.rows.filter((r) => r.kind === 'reminder')
    expect(reminders).toHaveLength(1)
    expect(reminders[0]).toMatchObject({ via: 'extension', summary: 'cycle × 2' })
    expect(reminders[0]!.text).toMatch(/^Repeated cycle of tool calls detected:\n- cycle: read_file -> read_file\n- repetitions: 2\n/)
    expect(conversation!.rows.filter((r) => r.kind === 'tool-result')).toHaveLength(4)
    expect(conversation!.rows.filter((r) => r.kind === 'wire-inserted')).toEqual([])
    await withPanel(async (panel) => {
      await expect.poll(() => panel.locator('[data-kind="reminder"] [data-testid="reminder-badge"]').allTextContents()).toEqual(['Cycle reminder'])
      expect(await panel.locator('[data-kind="call"][data-in-cycle="true"]').count()).toBe(4)
      expect(await panel.getByTestId('agent-wasted').textContent()).toBe('4 wasted')
    })
  })

  test('runaway with stopAfter: the sixth run is blocked, the model reads why and stops; the panel shows "blocked"', async () => {
    expect(await runLink('runaway', 'stop')).toBe('answered')
    const [conversation] = await readTranscript(session.page)
    const results = conversation!.rows.filter((r) => r.kind === 'tool-result')
    expect(results).toHaveLength(6)
    expect(results.slice(0, 5).every((r) => !r.denied && !r.blocked)).toBe(true)
    expect(results[5]).toMatchObject({ denied: true, blocked: true })
    expect(results[5]!.text).toBe('Blocked by repeat-tool-guard: run_tests was already called 5 times in a row with identical arguments (stopAfter: 5). Choose a different action.')
    expect(conversation!.rows.filter((r) => r.kind === 'reminder').map((r) => r.summary)).toEqual(['run_tests × 3', 'run_tests × 5'])
    await withPanel(async (panel) => {
      await expect.poll(() => panel.getByTestId('blocked-badge').allTextContents()).toEqual(['blocked'])
    })
  })
})
