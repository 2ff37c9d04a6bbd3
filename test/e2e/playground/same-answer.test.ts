// The same-answer scenario end to end, through the extension: its preset link turns on
// `repeatedText` and leaves the agent off the page API, so zero-code mode inserts the
// repeated-answer reminder into what reaches the model (docs/playground.md, "Scenarios"), while the
// same scenario with config=default gets the same answer every time and no reminder.
import { describe, expect, test } from 'vitest'
import { expectPanelBadges, expectToolResultsUnaltered, readTranscript, rowsOf, usePlayground, waitForRun, type Conversation, type Row } from './playground-page.ts'

const session = usePlayground({ extension: true })

const REMINDER = 'You have given the same answer 2 times in a row. If the task is complete, say so once and stop; otherwise take a different step.'

const isAnswer = (row: Row): boolean => row.kind === 'assistant' && row.calls.length === 0
const answersOf = (conversation: Conversation): string[] => conversation.rows.filter(isAnswer).map((r) => r.text)

async function onlyConversation(): Promise<Conversation> {
  const conversations = await readTranscript(session.page)
  expect(conversations.map((c) => c.agent)).toEqual(['same-answer'])
  return conversations[0]!
}

/** Writes to the agent again and waits for its next answer: the transcript then holds `answers` of them. */
async function followUp(text: string, answers: number): Promise<Conversation> {
  await session.page.getByTestId('follow-up').fill(text)
  await session.page.getByTestId('send').click()
  await expect.poll(async () => answersOf(await onlyConversation()).length, { timeout: 20_000 }).toBe(answers)
  expect(await waitForRun(session.page)).toBe('answered')
  return onlyConversation()
}

/** The first answer, then two follow-ups: what the model was sent and answered. */
async function threeAnswers(): Promise<Conversation> {
  expect(await waitForRun(session.page)).toBe('answered')
  expect(answersOf(await onlyConversation())).toHaveLength(1)
  await followUp('Tell me more.', 2)
  return followUp('Anything else I should know?', 3)
}

describe('same-answer through the extension: repeated-text catches the repeated answer, the default does not', () => {
  test('with the default the same answer three times and no reminder; from the preset link a wire-inserted reminder after the 2nd answer, then a new answer', async () => {
    await session.page.goto(`${session.server.origin}/?scenario=same-answer&config=default&autorun=1`)
    expect(await session.page.getByTestId('guard-switch').isChecked()).toBe(false)
    const plain = await threeAnswers()
    expect(new Set(answersOf(plain)).size).toBe(1)
    expect(rowsOf(plain, 'tool-result').map((r) => r.tool)).toEqual(['read_file'])
    expect(rowsOf(plain, 'reminder')).toEqual([])
    expect(rowsOf(plain, 'wire-inserted')).toEqual([])

    await session.page.goto(`${session.server.origin}/?scenario=same-answer`)
    await session.page.getByTestId('preset-link').click()
    await expect.poll(() => new URL(session.page.url()).search).toBe('?scenario=same-answer&config=repeated-text&autorun=1')
    const caught = await threeAnswers()
    const [first, second, third] = answersOf(caught)
    expect(second).toBe(first)
    expect(third).not.toBe(first)
    expect(third).toMatch(/^In detail: formatDate does not pad month and day yet/)
    expect(rowsOf(caught, 'tool-result').map((r) => r.tool)).toEqual(['read_file', 'read_file', 'read_file'])
    expect(caught.rows.flatMap((r) => r.calls).map((c) => JSON.parse(c.args))).toEqual([{ path: 'README.md' }, { path: 'src/format.ts' }, { path: 'src/parse.ts' }])

    // Inserted once, right after the second answer, and nothing from the page API.
    const inserted = rowsOf(caught, 'wire-inserted')
    expect(inserted.map((r) => r.text)).toEqual([REMINDER])
    const secondAnswer = caught.rows.filter(isAnswer)[1]!
    expect(caught.rows.indexOf(inserted[0]!)).toBe(caught.rows.indexOf(secondAnswer) + 1)
    expect(caught.rows[caught.rows.indexOf(inserted[0]!) + 1]).toMatchObject({ kind: 'prompt', text: 'Anything else I should know?' })
    expect(rowsOf(caught, 'reminder')).toEqual([])
    await expectToolResultsUnaltered(caught.rows)
    await expectPanelBadges(session, ['Repeated-answer reminder'])
  })
})
