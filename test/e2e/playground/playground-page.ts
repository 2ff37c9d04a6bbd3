// Drives the built playground in a browser page and reads its transcript back.
import type { Page } from 'playwright-core'
import { join } from 'node:path'
import { beforeAll, expect } from 'vitest'
import { canonicalArguments, createRepeatToolGuard, RECOMMENDED_CONFIG } from '../../../engine/index.ts'
import { MemoryProject } from '../../../playground/agent/project.ts'
import { SAMPLE_FILES } from '../../../playground/agent/sample-project.ts'
import { PROJECT_TOOLS, runTool } from '../../../playground/agent/tools/registry.ts'
import type { Workspace } from '../../../playground/agent/tools/tool.ts'
import { DIST_DIR, type Browser } from '../support/browser.ts'
import type { TestServer } from '../support/server.ts'
import { useStage } from '../support/stage.ts'
import { EXPECTED_REMINDERS } from './expectations.ts'

interface PlaygroundSession {
  readonly browser: Browser
  readonly server: TestServer
  readonly page: Page
}

/** One browser (with or without the extension), one served playground and a tab for it, for a whole test file. */
export function usePlayground(options: { extension: boolean }): PlaygroundSession {
  const stage = useStage({ folder: join(DIST_DIR, 'playground'), launch: options })
  let page: Page | undefined
  beforeAll(async () => {
    page = await stage.browser.context.newPage()
  })
  return {
    get browser() {
      return stage.browser
    },
    get server() {
      return stage.server
    },
    get page() {
      return page ?? expect.unreachable('the playground session starts in beforeAll')
    },
  }
}

/**
 * Runs scenario `id` and checks every conversation: the reminders the scenario expects, each from
 * `via` and none added on the wire, right after a step's results, with the engine's texts, and
 * every tool result as the tool produced it.
 */
export async function expectScenario(session: PlaygroundSession, id: string, via: 'extension' | 'playground'): Promise<void> {
  const expected = EXPECTED_REMINDERS[id] ?? expect.unreachable(`no expectations for scenario ${id}`)
  expect(await runScenario(session.page, session.server.origin, id)).toBe('answered')
  const conversations = await readTranscript(session.page)
  expect(conversations.map((c) => c.agent)).toEqual(Object.keys(expected))
  for (const { agent, rows, status } of conversations) {
    expect(status, agent).toBe('answered')
    expect(reminderMarks(rows), agent).toEqual(expected[agent])
    expect(
      rows.filter((r) => r.kind === 'reminder').every((r) => r.via === via),
      agent,
    ).toBe(true)
    // Never guarded twice: the model received exactly what the page sent.
    expect(
      rows.filter((r) => r.kind === 'wire-inserted'),
      agent,
    ).toEqual([])
    expectRemindersAfterStepResults(rows)
    expectEngineTexts(rows)
    await expectToolResultsUnaltered(rows)
  }
}

const FINISHED = ['answered', 'step-limit', 'failed', 'stopped']

export interface Row {
  readonly index: number
  readonly kind: string
  readonly via?: string
  readonly summary?: string
  readonly tool?: string
  readonly denied?: boolean
  /** Tool results the guard blocked (`stopAfter`). */
  readonly blocked?: boolean
  readonly changed: boolean
  readonly text: string
  /** Assistant rows: each call as `name args`. */
  readonly calls: readonly { name: string; args: string }[]
}

export interface Conversation {
  readonly agent: string
  readonly status: string
  readonly rows: readonly Row[]
}

export async function waitForRun(page: Page): Promise<string> {
  const status = page.getByTestId('run-status')
  await expect.poll(() => status.getAttribute('data-state'), { timeout: 20_000 }).toSatisfy((s: string | null) => FINISHED.includes(s ?? ''))
  return (await status.getAttribute('data-state'))!
}

/** Opens a scenario and runs it: by URL when the guard stays on, with the switch off otherwise. */
export async function runScenario(page: Page, origin: string, id: string, options: { guard?: boolean } = {}): Promise<string> {
  if (options.guard === false) {
    await page.goto(`${origin}/?scenario=${id}`)
    await page.getByTestId('guard-switch').uncheck()
    await page.getByTestId('run').click()
  } else {
    await page.goto(`${origin}/?scenario=${id}&autorun=1`)
  }
  return waitForRun(page)
}

export function readTranscript(page: Page): Promise<Conversation[]> {
  return page.$$eval('[data-testid="transcript"] section[data-agent]', (sections) =>
    sections.map((section) => ({
      agent: (section as HTMLElement).dataset.agent!,
      status: (section as HTMLElement).dataset.status!,
      rows: [...section.querySelectorAll<HTMLElement>('li.msg')].map((li) => ({
        index: Number(li.dataset.index),
        kind: li.dataset.kind!,
        ...(li.dataset.via ? { via: li.dataset.via } : {}),
        ...(li.dataset.summary ? { summary: li.dataset.summary } : {}),
        ...(li.dataset.tool ? { tool: li.dataset.tool, denied: li.dataset.denied === 'true' } : {}),
        ...(li.dataset.blocked ? { blocked: true } : {}),
        changed: li.dataset.changed === 'true',
        text: li.querySelector('pre.text')?.textContent ?? '',
        calls: [...li.querySelectorAll<HTMLElement>('.call')].map((c) => ({
          name: c.querySelector('.call-name')!.textContent!,
          args: c.querySelector('.call-args')!.textContent!,
        })),
      })),
    })),
  )
}

/** The conversation's rows of one kind, in order. */
export const rowsOf = (conversation: Conversation, kind: string): Row[] => conversation.rows.filter((r) => r.kind === kind)

/** The panel's reminder badges for the session's tab, once the panel has them all. */
export async function expectPanelBadges(session: PlaygroundSession, expected: readonly string[]): Promise<void> {
  const panel = await session.browser.openPanel(await session.browser.tabId(session.page))
  try {
    await expect.poll(() => panel.locator('[data-kind="reminder"] [data-testid="reminder-badge"]').allTextContents()).toEqual(expected)
  } finally {
    await panel.close()
  }
}

const isReminder = (row: Row) => row.kind === 'reminder' || row.kind === 'wire-inserted'

/** Each reminder as `<tool results before it>:<gentle|detailed>`. */
export function reminderMarks(rows: readonly Row[]): string[] {
  let results = 0
  const marks: string[] = []
  for (const row of rows) {
    if (row.kind === 'tool-result') results += 1
    if (isReminder(row)) marks.push(`${results}:${row.text.startsWith('Repeated tool call detected:') ? 'detailed' : 'gentle'}`)
  }
  return marks
}

/** A reminder sits after all of its step's tool results: a tool result or reminder before it, never a tool result after. */
function expectRemindersAfterStepResults(rows: readonly Row[]): void {
  rows.forEach((row, i) => {
    if (!isReminder(row)) return
    expect(['tool-result', 'reminder', 'wire-inserted']).toContain(rows[i - 1]?.kind)
    expect(rows[i + 1]?.kind ?? 'assistant').not.toBe('tool-result')
  })
}

/**
 * Re-runs an agent's calls on a fresh project in Node and checks every tool result in the
 * transcript is exactly what the tool returned: nothing on the way altered one. The subagent
 * tools are left out (their results depend on the other agent).
 */
export async function expectToolResultsUnaltered(rows: readonly Row[], options: { allowDelete?: boolean } = {}): Promise<void> {
  const workspace: Workspace = { project: new MemoryProject(SAMPLE_FILES), permissions: { allowDelete: options.allowDelete ?? false }, todos: [], integrationChecks: 0 }
  const calls = rows.flatMap((r) => r.calls)
  const results = rows.filter((r) => r.kind === 'tool-result')
  expect(results).toHaveLength(calls.length)
  for (const [i, call] of calls.entries()) {
    expect(results[i]!.tool).toBe(call.name)
    if (call.name === 'spawn_subagent' || call.name === 'wait_subagent') continue
    const expected = await runTool(PROJECT_TOOLS, call.name, JSON.parse(call.args), { workspace, yieldTurnUntil: (work) => work })
    expect(results[i]!.text, `result of ${call.name} ${call.args}`).toBe(expected.content)
  }
  expect(rows.filter((r) => r.changed)).toEqual([])
}

/** The reminder text the engine gives at `count` identical calls (recommended config). */
export function engineReminder(tool: string, args: unknown, count: number): string | undefined {
  const guard = createRepeatToolGuard(RECOMMENDED_CONFIG)
  const agent = {}
  let text: string | undefined
  for (let i = 0; i < count; i++) text = guard.observe({ agent, name: tool, arguments: args })?.content[0].text
  return text
}

/** Every reminder is exactly the engine's text for the run it follows. */
export function expectEngineTexts(rows: readonly Row[]): void {
  let last: { name: string; args: string } | undefined
  let count = 0
  for (const row of rows) {
    for (const call of row.calls) {
      if (call.name === 'todo_write') continue
      count = last && last.name === call.name && canonicalArguments(last.args) === canonicalArguments(call.args) ? count + 1 : 1
      last = call
    }
    if (isReminder(row)) expect(row.text).toBe(engineReminder(last!.name, JSON.parse(last!.args), count))
  }
}
