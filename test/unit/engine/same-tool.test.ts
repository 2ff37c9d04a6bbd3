import { expect, it } from 'vitest'
import { ofType } from './support/events.ts'
import { firedAt, textsIn } from './support/fired.ts'
import { oneCallPerStep, runScenario, times } from './support/scenario.ts'
import { detailed, GENTLE, SAME_TOOL_GENTLE, sameToolDetailed } from './support/texts.ts'

const greps = (n: number) => Array.from({ length: n }, (_, i) => ['grep', { pattern: `TODO${i + 1}`, path: 'src' }] as const)

it("counts a run of one tool whatever its arguments with countBy: 'tool', and says so", async () => {
  const { agent, events } = await runScenario(oneCallPerStep(greps(9)), { countBy: 'tool' })
  expect(firedAt(agent.history)).toEqual([
    [3, 'grep × 3'],
    [5, 'grep × 5'],
    [8, 'grep × 8'],
  ])
  expect(textsIn(agent.history)).toEqual([SAME_TOOL_GENTLE, sameToolDetailed('grep', 5, '{"path":"src","pattern":"TODO5"}'), sameToolDetailed('grep', 8, '{"path":"src","pattern":"TODO8"}')])
  expect(ofType(events, 'reminder').map(({ detector, level }) => [detector, level])).toEqual([
    ['same-tool', 'gentle'],
    ['same-tool', 'detailed'],
    ['same-tool', 'detailed'],
  ])
  expect(ofType(events, 'chain-reset')).toEqual([])
})

it("finds no run in changing arguments with countBy: 'call', the default", async () => {
  const { agent } = await runScenario(oneCallPerStep(greps(9)))
  expect(firedAt(agent.history)).toEqual([])
})

it('breaks a same-tool run on another tool, and previews the last arguments under the cap', async () => {
  const script = oneCallPerStep([...greps(2), ['read_file', { path: 'a' }], ...greps(5)])
  const { agent, events, guard } = await runScenario(script, { countBy: 'tool', thresholds: [2, 5], argumentsPreviewChars: 10 })
  expect(firedAt(agent.history)).toEqual([
    [2, 'grep × 2'],
    [5, 'grep × 2'],
    [8, 'grep × 5'],
  ])
  expect(textsIn(agent.history)[2]).toBe(sameToolDetailed('grep', 5, '{"path":"s… (+22 more chars)'))
  expect(ofType(events, 'chain-reset').map((e) => [e.reason, e.previousCount])).toEqual([
    ['different-call', 2],
    ['different-call', 1],
  ])
  expect(guard.snapshot()).toMatchObject([{ tool: 'grep', canonicalArguments: '{"path":"src","pattern":"TODO5"}', count: 5, nextThreshold: null }])
})

it('keeps the original texts for an exact repeat when another detector is on, and names the detector', async () => {
  const { agent, events } = await runScenario(oneCallPerStep(times(5, ['grep', { q: 1 }])), { cycles: { maxPeriod: 2, repeats: 2 } })
  expect(textsIn(agent.history)).toEqual([GENTLE, detailed('grep', 5, '{"q":1}')])
  expect(ofType(events, 'reminder').map((e) => e.detector)).toEqual(['repeat', 'repeat'])
})

it('names no detector on reminder events while every detector is off', async () => {
  const { events } = await runScenario(oneCallPerStep(times(3, ['grep', { q: 1 }])), { countBy: 'call', cycles: null, stopAfter: null })
  const [reminder] = ofType(events, 'reminder')
  expect(reminder).toBeDefined()
  expect(Object.keys(reminder!)).not.toContain('detector')
})
