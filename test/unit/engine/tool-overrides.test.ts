import { expect, it } from 'vitest'
import { createRepeatToolGuard } from '../../../engine/index.ts'
import type { Tool } from './support/agent-loop.ts'
import { ofType, recordEvents } from './support/events.ts'
import { firedAt, textsIn } from './support/fired.ts'
import { oneCallPerStep, runScenario, times, tools } from './support/scenario.ts'
import { blockText, GENTLE, SAME_TOOL_GENTLE } from './support/texts.ts'

const GREP = ['grep', { pattern: 'TODO', path: 'src' }] as const
const SCROLL = ['scroll_page', { by: 600 }] as const
const withScroll: Record<string, Tool> = { ...tools, scroll_page: () => 'scrolled' }

it('applies per-tool thresholds to two tools interleaved, each run restarting on the other', async () => {
  const config = {
    thresholds: [3],
    tools: [
      { match: 'scroll_*', thresholds: [6, 10] },
      { match: 'grep', thresholds: [2] },
    ],
  }
  const script = oneCallPerStep([
    ...times(2, GREP),
    ...times(6, SCROLL),
    ...times(3, GREP),
    ...times(10, SCROLL),
    ['read_file', { path: 'a' }],
    ['read_file', { path: 'a' }],
    ['read_file', { path: 'a' }],
  ])
  const { agent, events } = await runScenario(script, config, { tools: withScroll })
  expect(firedAt(agent.history)).toEqual([
    [2, 'grep × 2'],
    [8, 'scroll_page × 6'],
    [10, 'grep × 2'],
    [17, 'scroll_page × 6'],
    [21, 'scroll_page × 10'],
    [24, 'read_file × 3'],
  ])
  expect(
    ofType(events, 'call')
      .slice(0, 9)
      .map((e) => e.nextThreshold),
  ).toEqual([2, null, 6, 6, 6, 6, 6, 10, 2])
  expect(ofType(events, 'chain-reset').map((e) => e.previousCount)).toEqual([2, 6, 3, 10])
})

it('takes the first entry whose pattern matches, and the top level for fields it leaves out', async () => {
  const config = {
    thresholds: [2, 4],
    countBy: 'tool',
    tools: [
      { match: 'grep', thresholds: [3] },
      { match: 'gr*', thresholds: [2], countBy: 'call' },
    ],
  } as const
  const guard = createRepeatToolGuard(config)
  const agent = {}
  const fired = Array.from({ length: 4 }, (_, i) => guard.observe({ agent, name: 'grep', arguments: { q: i } })?.content[0].text)
  expect(fired).toEqual([undefined, undefined, SAME_TOOL_GENTLE, undefined])
  expect(guard.snapshot()).toMatchObject([{ tool: 'grep', count: 4, nextThreshold: null }])
  // `grin` falls to the second entry: counted by call, so its changing arguments never repeat.
  const other = Array.from({ length: 3 }, (_, i) => guard.observe({ agent, name: 'grin', arguments: { q: i } }))
  expect(other).toEqual([undefined, undefined, undefined])
})

it('counts one tool by tool and another by call', async () => {
  const config = { tools: [{ match: 'scroll_page', countBy: 'tool' }] } as const
  const script = oneCallPerStep([...[1, 2, 3].map((by) => ['scroll_page', { by }] as const), ...[1, 2, 3].map((n) => ['grep', { q: n }] as const)])
  const { agent, events } = await runScenario(script, config, { tools: withScroll })
  expect(textsIn(agent.history)).toEqual([SAME_TOOL_GENTLE])
  expect(ofType(events, 'reminder').map((e) => e.detector)).toEqual(['same-tool'])
})

it('makes one tool result-aware, leaving the others exact', async () => {
  let polls = 0
  const config = { thresholds: [2], tools: [{ match: 'poll_*', resultAware: true }] }
  const script = oneCallPerStep([...times(3, ['poll_job', { id: 1 }] as const), ...times(2, GREP)])
  const { agent, events } = await runScenario(script, config, { tools: { ...tools, poll_job: () => `progress ${++polls}` } })
  expect(firedAt(agent.history)).toEqual([[5, 'grep × 2']])
  expect(textsIn(agent.history)).toEqual([GENTLE])
  expect(ofType(events, 'chain-reset').map((e) => e.reason)).toEqual(['result-changed', 'result-changed', 'different-call'])
})

it('enforces stopAfter per tool, and never for a tool whose entry turns it off', async () => {
  const config = {
    stopAfter: 3,
    tools: [
      { match: 'scroll_*', stopAfter: null },
      { match: 'grep', stopAfter: 2 },
    ],
  }
  const guard = createRepeatToolGuard(config)
  const events = recordEvents(guard)
  const agent = {}
  const scroll = { agent, name: SCROLL[0], arguments: SCROLL[1] }
  const grep = { agent, name: GREP[0], arguments: GREP[1] }
  const read = { agent, name: 'read_file', arguments: { path: 'a' } }
  for (let i = 0; i < 9; i++) guard.observe(scroll)
  expect(guard.preExecute(scroll)).toEqual({ kind: 'continue' })
  guard.observe(grep)
  guard.observe(grep)
  expect(guard.preExecute(grep)).toEqual({ kind: 'block', feedback: blockText('grep', 2, 2) })
  for (let i = 0; i < 3; i++) guard.observe(read)
  expect(guard.preExecute(read)).toEqual({ kind: 'block', feedback: blockText('read_file', 3, 3) })
  expect(ofType(events, 'blocked').map((e) => e.tool)).toEqual(['grep', 'read_file'])
})

it('keeps resolving the right entry past the bound of the per-name cache', () => {
  const guard = createRepeatToolGuard({ thresholds: [3], tools: [{ match: 'scroll_*', thresholds: [2] }] })
  const agent = {}
  const twice = (name: string) => [guard.observe({ agent, name }), guard.observe({ agent, name })].map((m) => m?.source.summary)
  for (let i = 0; i < 1500; i++) expect(twice(`scroll_${i}`)).toEqual([undefined, `scroll_${i} × 2`])
  expect(twice('grep')).toEqual([undefined, undefined])
  expect(twice('scroll_0')).toEqual([undefined, 'scroll_0 × 2'])
})

/** The counts at which `calls` identical calls of `name` got a reminder. */
function remindedAt(guard: ReturnType<typeof createRepeatToolGuard>, agent: object, name: string, calls: number): number[] {
  const counts: number[] = []
  for (let i = 1; i <= calls; i++) if (guard.observe({ agent, name, arguments: { q: name } }) !== undefined) counts.push(i)
  return counts
}

it('fires nothing past the highest threshold, however long the run goes on', () => {
  const guard = createRepeatToolGuard()
  const agent = {}
  expect(remindedAt(guard, agent, 'grep', 500)).toEqual([3, 5, 8])
  expect(guard.snapshot()).toMatchObject([{ count: 500, nextThreshold: null }])
})

it('fires each tool’s own thresholds exactly, and nothing past its highest, in long runs', () => {
  const guard = createRepeatToolGuard({
    thresholds: [3],
    tools: [
      { match: 'scroll_*', thresholds: [2, 7, 50] },
      { match: 'grep', thresholds: [4] },
    ],
  })
  const agent = {}
  expect(remindedAt(guard, agent, 'scroll_page', 300)).toEqual([2, 7, 50])
  expect(remindedAt(guard, agent, 'grep', 100)).toEqual([4])
  expect(remindedAt(guard, agent, 'read_file', 100)).toEqual([3])
  // Back to the first tool: a new run, its thresholds again.
  expect(remindedAt(guard, agent, 'scroll_page', 60)).toEqual([2, 7, 50])
  // A new config mid-run applies from the next call, and the run goes on: its 61st and 65th calls fire.
  guard.configure({ tools: [{ match: 'scroll_*', thresholds: [61, 65] }] })
  expect(remindedAt(guard, agent, 'scroll_page', 10)).toEqual([1, 5])
})
