// `similar` through the agent loop: the model searching for the same thing in new words is a near
// repeat, found by the Sørensen–Dice coefficient of the calls' argument bigrams (docs/detectors.md,
// "Near repeats").
import { describe, expect, it } from 'vitest'
import { createRepeatToolGuard, type GuardConfigInput } from '../../../engine/index.ts'
import type { Tool } from './support/agent-loop.ts'
import { ofType } from './support/events.ts'
import { firedAt, textsIn } from './support/fired.ts'
import { oneCallPerStep, runScenario, tools } from './support/scenario.ts'

function similarText(tool: string, count: number, lastArgs: string): string {
  return `Near-repeated tool calls detected:
- tool: ${tool}
- similar_calls: ${count}
- last_arguments: ${lastArgs}
The calls differ only slightly and keep returning to the same request. Inspect the latest result and decide whether a genuinely different approach is needed, or finish the task if enough evidence has been gathered.`
}

const search: Tool = ({ query }: { query: string }) => `3 results for ${query}`
const failingSearch: Tool = () => {
  throw new Error('index offline')
}
const loop = { tools: { ...tools, search } }
const NEAR = { similar: { threshold: 0.7, minCalls: 3 } } as const
const searches = (...queries: string[]) => queries.map((query) => ['search', { query }] as const)
/** Each alike to the one before (Dice >= 0.7 over their canonical arguments). */
const REPHRASED = ['how do I configure auth', 'configure auth', 'auth configuration', 'configure authentication', 'Configure Auth', 'auth configuration']

/** The `similar` reminders of `guard` when an agent makes `calls` one by one, as [call number, summary]. */
function firedDirect(config: GuardConfigInput, calls: readonly (readonly [string, unknown])[]): [number, string][] {
  const guard = createRepeatToolGuard(config)
  const agent = {}
  return calls.flatMap(([name, args], i) => {
    const summary = guard.observe({ agent, name, arguments: args })?.source.summary
    return summary === undefined ? [] : [[i + 1, summary] as [number, string]]
  })
}

describe('similar', () => {
  it('reminds when the model searches for the same thing in new words, previewing the last call as called', async () => {
    const { agent, events } = await runScenario(oneCallPerStep(searches(...REPHRASED)), NEAR, loop)
    expect(firedAt(agent.history)).toEqual([
      [3, 'search ≈ × 3'],
      [6, 'search ≈ × 6'],
    ])
    expect(textsIn(agent.history)).toEqual([similarText('search', 3, '{"query":"auth configuration"}'), similarText('search', 6, '{"query":"auth configuration"}')])
    expect(ofType(events, 'reminder').map(({ detector, level, count }) => [detector, level, count])).toEqual([
      ['similar', 'similar', 3],
      ['similar', 'similar', 6],
    ])
  })

  it('finds nothing in the same searches by default', async () => {
    const { agent } = await runScenario(oneCallPerStep(searches(...REPHRASED)), undefined, loop)
    expect(firedAt(agent.history)).toEqual([])
  })

  it('fires at minCalls, twice and three times that, then stays silent', () => {
    const calls = Array.from({ length: 12 }, (_, i) => ['search', { query: `configure auth, attempt ${i + 1}` }] as const)
    expect(firedDirect(NEAR, calls)).toEqual([
      [3, 'search ≈ × 3'],
      [6, 'search ≈ × 6'],
      [9, 'search ≈ × 9'],
    ])
  })

  it('lets an identical call neither extend nor end a run: the repeat chain counts it', () => {
    const calls = searches('configure auth', 'configure authentication', 'configure authentication', 'configure authentication', 'auth configuration')
    expect(firedDirect({ ...NEAR, thresholds: [9] }, calls)).toEqual([[5, 'search ≈ × 3']])
    // With countBy: 'tool' the chain counts every call of one tool: none is a near repeat.
    expect(firedDirect({ ...NEAR, countBy: 'tool', thresholds: [9] }, searches(...REPHRASED))).toEqual([])
  })

  it("ends a run on a call that is not alike, another tool's call, or a user prompt; untracked calls are transparent", () => {
    const unlike = searches('configure auth', 'configure authentication', 'list open pull requests', 'auth configuration')
    expect(firedDirect(NEAR, unlike)).toEqual([])
    const otherTool = [...searches('configure auth', 'configure authentication'), ['grep', { query: 'configure auth' }] as const, ...searches('auth configuration')]
    expect(firedDirect(NEAR, otherTool)).toEqual([])
    // A tool with near repeats turned off ends the run too.
    expect(firedDirect({ ...NEAR, tools: [{ match: 'grep', similar: null }] }, otherTool)).toEqual([])
    const untracked = [...searches('configure auth', 'configure authentication'), ['todo_write', {}] as const, ...searches('auth configuration')]
    expect(firedDirect({ ...NEAR, exclude: ['todo_write'] }, untracked)).toEqual([[4, 'search ≈ × 3']])
    const guard = createRepeatToolGuard(NEAR)
    const agent = {}
    const call = (query: string) => guard.observe({ agent, name: 'search', arguments: { query } })
    call('configure auth')
    call('configure authentication')
    guard.promptSubmit(agent)
    expect(call('auth configuration')).toBeUndefined()
  })

  it('lower-cases the texts and compares them without the ignored keys', () => {
    // Long ids with nothing in common: with them, no two calls are alike.
    const calls = ['a', 'b', 'c'].map((id, i) => ['search', { query: i % 2 ? 'Configure Auth' : 'configure auth', requestId: id.repeat(64) }] as const)
    const strict = { similar: { threshold: 0.9, minCalls: 3 }, thresholds: [9] }
    expect(firedDirect(strict, calls)).toEqual([])
    expect(firedDirect({ ...strict, ignoreArgumentKeys: ['requestId'] }, calls)).toEqual([[3, 'search ≈ × 3']])
    // The preview is the last call as called, its request id included.
    const guard = createRepeatToolGuard({ ...strict, ignoreArgumentKeys: ['requestId'], argumentsPreviewChars: 1000 })
    const texts = calls.map(([name, args]) => guard.observe({ agent: guard, name, arguments: args })?.content[0].text)
    expect(texts[2]).toBe(similarText('search', 3, `{"query":"configure auth","requestId":"${'c'.repeat(64)}"}`))
  })

  it('takes calls alike when the coefficient equals the threshold', () => {
    // {ab, bc} and {ab, bd}: one bigram in common of four, a coefficient of exactly 0.5.
    expect(
      firedDirect({ similar: { threshold: 0.5, minCalls: 3 } }, [
        ['note', 'abc'],
        ['note', 'abd'],
        ['note', 'abe'],
      ]),
    ).toEqual([[3, 'note ≈ × 3']])
  })

  it('takes a result-aware poll whose result changes as no near repeat: its arguments are identical', () => {
    const guard = createRepeatToolGuard({ ...NEAR, resultAware: true })
    const agent = {}
    const fired = [1, 2, 3, 4].map((n) => guard.observe({ agent, name: 'search', arguments: { query: 'job 7 status' } }, { content: `progress ${n * 25}%` }))
    expect(fired).toEqual([undefined, undefined, undefined, undefined])
  })

  it('compares arguments longer than 4,096 characters by their first 4,096', () => {
    const head = 'x'.repeat(4096)
    const calls = ['tail one', 'a quite different tail', 'and a third'].map((tail) => ['write_file', `${head}${tail}`] as const)
    expect(firedDirect({ similar: { threshold: 0.99, minCalls: 3 } }, calls)).toEqual([[3, 'write_file ≈ × 3']])
  })

  it('follows each tool’s setting: null turns it off, an entry alone turns it on for its tools', () => {
    const off: GuardConfigInput = { ...NEAR, tools: [{ match: 'search', similar: null }] }
    expect(firedDirect(off, searches(...REPHRASED))).toEqual([])
    const onlySearch: GuardConfigInput = { tools: [{ match: 'search', similar: { threshold: 0.7, minCalls: 4 } }] }
    expect(firedDirect(onlySearch, searches(...REPHRASED))).toEqual([[4, 'search ≈ × 4']])
    const greps = REPHRASED.map((query) => ['grep', { query }] as const)
    expect(firedDirect(onlySearch, greps)).toEqual([])
  })

  it('gives an error run before a near repeat on the same call; the near repeat still counts it', async () => {
    const failing = { tools: { ...tools, search: failingSearch } }
    const { agent, events } = await runScenario(oneCallPerStep(searches(...REPHRASED)), { ...NEAR, errorRuns: { after: 3 } }, failing)
    expect(firedAt(agent.history)).toEqual([
      [3, 'search errors × 3'],
      [6, 'search errors × 6'],
    ])
    expect(ofType(events, 'reminder').map((e) => e.detector)).toEqual(['error-run', 'error-run'])
    const { agent: withoutErrors } = await runScenario(oneCallPerStep(searches(...REPHRASED)), { similar: { threshold: 0.7, minCalls: 3 }, errorRuns: { after: 4 } }, failing)
    expect(firedAt(withoutErrors.history)).toEqual([
      [3, 'search ≈ × 3'],
      [4, 'search errors × 4'],
      [6, 'search ≈ × 6'],
    ])
  })

  it('gives a cycle before a near repeat on the same call', () => {
    // Two alike searches in turn: a cycle of period 2 completes its second period on the 4th
    // call, where the near repeat reaches minCalls too.
    const calls = searches('configure auth', 'configure authentication', 'configure auth', 'configure authentication')
    const near = { similar: { threshold: 0.7, minCalls: 4 } }
    expect(firedDirect(near, calls)).toEqual([[4, 'search ≈ × 4']])
    expect(firedDirect({ ...near, cycles: { maxPeriod: 2, repeats: 2 } }, calls)).toEqual([[4, 'cycle × 2']])
  })
})
