// The round-2 detector scenarios end to end, through the extension: each scenario's preset link
// sets one option on the extension's page guard and the reminder reaches the model and the panel,
// while the same scenario with config=default gets no reminder at all.
import { describe, expect, test } from 'vitest'
import { expectPanelBadges, expectToolResultsUnaltered, readTranscript, rowsOf, usePlayground, waitForRun, type Conversation } from './playground-page.ts'

const session = usePlayground({ extension: true })

async function runLink(scenario: string, preset: string): Promise<Conversation> {
  await session.page.goto(`${session.server.origin}/?scenario=${scenario}&config=${preset}&autorun=1`)
  expect(await waitForRun(session.page)).toBe('answered')
  const conversations = await readTranscript(session.page)
  expect(conversations.map((c) => c.agent)).toEqual([scenario])
  return conversations[0]!
}

/** The picker's own link to the preset run: what a reader clicks. */
async function followPresetLink(scenario: string): Promise<Conversation> {
  await session.page.goto(`${session.server.origin}/?scenario=${scenario}`)
  await session.page.getByTestId('preset-link').click()
  expect(await waitForRun(session.page)).toBe('answered')
  const conversations = await readTranscript(session.page)
  expect(conversations.map((c) => c.agent)).toEqual([scenario])
  return conversations[0]!
}

describe('the near-repeat scenarios through the extension: the preset catches the loop, the default does not', () => {
  test('rephrase: eight searches and no reminder with the default; with similar a near-repeat reminder after the third, and the model reads the code', async () => {
    const plain = await runLink('rephrase', 'default')
    expect(rowsOf(plain, 'tool-result')).toHaveLength(8)
    expect(rowsOf(plain, 'reminder')).toEqual([])
    expect(rowsOf(plain, 'wire-inserted')).toEqual([])

    const caught = await followPresetLink('rephrase')
    expect(rowsOf(caught, 'tool-result').map((r) => r.tool)).toEqual(['grep', 'grep', 'grep', 'read_file'])
    const reminders = rowsOf(caught, 'reminder')
    expect(reminders).toHaveLength(1)
    expect(reminders[0]).toMatchObject({ via: 'extension', summary: 'grep ≈ × 3' })
    expect(reminders[0]!.text).toMatch(/^Near-repeated tool calls detected:\n- tool: grep\n- similar_calls: 3\n- last_arguments: \{"ignoreCase":true,"pattern":"configure the date format"\}\n/)
    expect(caught.rows.indexOf(reminders[0]!)).toBe(caught.rows.indexOf(rowsOf(caught, 'tool-result')[2]!) + 1)
    expect(rowsOf(caught, 'wire-inserted')).toEqual([])
    await expectToolResultsUnaltered(caught.rows)
    await expectPanelBadges(session, ['Near-repeat reminder'])
  })

  test('flaky-tool: six failed fetches and no reminder with the default; with error-runs an error-run reminder after the third failure', async () => {
    const plain = await runLink('flaky-tool', 'default')
    expect(rowsOf(plain, 'tool-result')).toHaveLength(6)
    expect(rowsOf(plain, 'reminder')).toEqual([])
    expect(rowsOf(plain, 'wire-inserted')).toEqual([])

    const caught = await followPresetLink('flaky-tool')
    expect(rowsOf(caught, 'tool-result').map((r) => r.tool)).toEqual(['fetch_url', 'fetch_url', 'fetch_url', 'read_file'])
    const reminders = rowsOf(caught, 'reminder')
    expect(reminders).toHaveLength(1)
    expect(reminders[0]).toMatchObject({ via: 'extension', summary: 'fetch_url errors × 3' })
    expect(reminders[0]!.text).toMatch(
      /^Repeated tool errors detected:\n- tool: fetch_url\n- consecutive_errors: 3\n- last_error: Error: request to https:\/\/api\.github\.com\/.* failed, reason: getaddrinfo EAI_AGAIN api\.github\.com\n/,
    )
    expect(rowsOf(caught, 'wire-inserted')).toEqual([])
    await expectToolResultsUnaltered(caught.rows)
    await expectPanelBadges(session, ['Error-run reminder'])
  })

  test('volatile-id: eight checks with fresh request ids and no reminder with the default; with volatile-keys the repeat reminder after the third', async () => {
    const plain = await runLink('volatile-id', 'default')
    expect(rowsOf(plain, 'tool-result')).toHaveLength(8)
    expect(new Set(plain.rows.flatMap((r) => r.calls).map((c) => c.args)).size).toBe(8)
    expect(rowsOf(plain, 'reminder')).toEqual([])
    expect(rowsOf(plain, 'wire-inserted')).toEqual([])

    const caught = await followPresetLink('volatile-id')
    expect(rowsOf(caught, 'tool-result').map((r) => r.tool)).toEqual(['ci_status', 'ci_status', 'ci_status'])
    const reminders = rowsOf(caught, 'reminder')
    expect(reminders).toHaveLength(1)
    expect(reminders[0]).toMatchObject({ via: 'extension', summary: 'ci_status × 3' })
    expect(reminders[0]!.text).toMatch(/^You are repeating the exact same tool call/)
    expect(rowsOf(caught, 'wire-inserted')).toEqual([])
    await expectToolResultsUnaltered(caught.rows)
    await expectPanelBadges(session, ['Gentle reminder'])
  })
})
