// `errorRuns` through the agent loop: one tool failing again and again, whatever its arguments,
// reminds at `after`, twice and three times that (docs/detectors.md, "Error runs").
import { describe, expect, it } from 'vitest'
import { createRepeatToolGuard, type GuardConfigInput, type ToolResult } from '../../../engine/index.ts'
import type { Tool } from './support/agent-loop.ts'
import { ofType, recordEvents } from './support/events.ts'
import { firedAt, textsIn } from './support/fired.ts'
import { oneCallPerStep, runScenario, tools, times } from './support/scenario.ts'
import { detailed, GENTLE } from './support/texts.ts'

function errorRunText(tool: string, count: number, lastError: string): string {
  return `Repeated tool errors detected:
- tool: ${tool}
- consecutive_errors: ${count}
- last_error: ${lastError}
The tool keeps failing. Read the error, change the arguments or the approach, or report the failure instead of calling it again.`
}

/** A tool that fails every time, as a flaky service does. */
const flaky: Tool = ({ url }: { url: string }) => {
  throw new Error(`503 Service Unavailable: ${url}`)
}
const withFlaky = { tools: { ...tools, fetch_url: flaky } }
const fetches = (n: number, from = 1) => Array.from({ length: n }, (_, i) => ['fetch_url', { url: `https://example.com/${from + i}` }] as const)

describe('errorRuns', () => {
  it('reminds at after, twice and three times that, whatever the arguments, quoting the last error', async () => {
    const { agent, events } = await runScenario(oneCallPerStep(fetches(12)), { errorRuns: { after: 3 } }, withFlaky)
    expect(firedAt(agent.history)).toEqual([
      [3, 'fetch_url errors × 3'],
      [6, 'fetch_url errors × 6'],
      [9, 'fetch_url errors × 9'],
    ])
    expect(textsIn(agent.history)[1]).toBe(errorRunText('fetch_url', 6, 'Error: 503 Service Unavailable: https://example.com/6'))
    expect(ofType(events, 'reminder').map(({ detector, level, count, tool }) => [detector, level, count, tool])).toEqual([
      ['error-run', 'error-run', 3, 'fetch_url'],
      ['error-run', 'error-run', 6, 'fetch_url'],
      ['error-run', 'error-run', 9, 'fetch_url'],
    ])
  })

  it('finds nothing in the same failures by default', async () => {
    const { agent } = await runScenario(oneCallPerStep(fetches(12)), undefined, withFlaky)
    expect(firedAt(agent.history)).toEqual([])
  })

  it("ends a run on a success or another tool's call; a denied call neither extends nor ends it; an untracked one is transparent", async () => {
    const script = oneCallPerStep([
      ...fetches(2),
      ['read_file', { path: 'a' }],
      ...fetches(2, 3),
      ['grep', { pattern: 'x', path: 's' }],
      ...fetches(2, 5),
      ['todo_write', {}],
      ['fetch_url', { url: 'denied' }],
      ...fetches(1, 7),
    ])
    const permit = (_name: string, args: unknown) => (args as { url?: string }).url !== 'denied'
    const { agent, events } = await runScenario(script, { errorRuns: { after: 3 }, exclude: ['todo_write'] }, { ...withFlaky, permit })
    // Calls 7 and 8 fail, todo_write is untracked, call 10 is denied, call 11 is the third failure.
    expect(firedAt(agent.history)).toEqual([[11, 'fetch_url errors × 3']])
    expect(ofType(events, 'reminder').map((e) => e.count)).toEqual([3])
  })

  it('turns off for a tool whose tools entry says errorRuns: null, and on for a tool whose entry sets it', async () => {
    const failing: Tool = () => {
      throw new Error('boom')
    }
    const loop = { tools: { ...tools, fetch_url: flaky, write_file: failing } }
    const writes = times(4, ['write_file', { content: 'x' }] as const)
    const off: GuardConfigInput = { errorRuns: { after: 2 }, thresholds: [9], tools: [{ match: 'fetch_url', errorRuns: null }] }
    expect(firedAt((await runScenario(oneCallPerStep(fetches(4)), off, loop)).agent.history)).toEqual([])
    expect(firedAt((await runScenario(oneCallPerStep(writes), off, loop)).agent.history)).toEqual([
      [2, 'write_file errors × 2'],
      [4, 'write_file errors × 4'],
    ])
    const onlyOne: GuardConfigInput = { tools: [{ match: 'fetch_url', errorRuns: { after: 2 } }] }
    expect(firedAt((await runScenario(oneCallPerStep(fetches(2)), onlyOne, loop)).agent.history)).toEqual([[2, 'fetch_url errors × 2']])
    expect(firedAt((await runScenario(oneCallPerStep(times(3, ['write_file', { content: 'y' }] as const)), onlyOne, loop)).agent.history)).toEqual([[3, 'write_file × 3']])
  })

  it("gives the repeat chain's reminder when both fire on one call, and the error run's on the others", async () => {
    const same = times(9, ['fetch_url', { url: 'https://example.com/1' }] as const)
    const { agent, events } = await runScenario(oneCallPerStep(same), { errorRuns: { after: 3 } }, withFlaky)
    expect(firedAt(agent.history)).toEqual([
      [3, 'fetch_url × 3'],
      [5, 'fetch_url × 5'],
      [6, 'fetch_url errors × 6'],
      [8, 'fetch_url × 8'],
      [9, 'fetch_url errors × 9'],
    ])
    expect(textsIn(agent.history).slice(0, 2)).toEqual([GENTLE, detailed('fetch_url', 5, '{"url":"https://example.com/1"}')])
    expect(ofType(events, 'reminder').map((e) => e.detector)).toEqual(['repeat', 'repeat', 'error-run', 'repeat', 'error-run'])
  })

  it("starts a new run on another tool's error", () => {
    const guard = createRepeatToolGuard({ errorRuns: { after: 2 } })
    const agent = {}
    const summaries = ['a', 'b', 'a', 'a'].map((name, i) => guard.observe({ agent, name, arguments: { i } }, { isError: true, content: 'down' })?.source.summary)
    expect(summaries).toEqual([undefined, undefined, undefined, 'a errors × 2'])
  })

  it('starts over after a user prompt', () => {
    const guard = createRepeatToolGuard({ errorRuns: { after: 2 } })
    const agent = {}
    const fail = (n: number) => guard.observe({ agent, name: 'fetch_url', arguments: { n } }, { isError: true, content: 'down' })
    fail(1)
    guard.promptSubmit(agent)
    expect(fail(2)).toBeUndefined()
    expect(fail(3)?.source.summary).toBe('fetch_url errors × 2')
  })
})

describe('the last error an error run quotes', () => {
  /** The `last_error` line of the reminder two failures with `result` give. */
  function lastError(result: ToolResult, argumentsPreviewChars = 500): string | undefined {
    const guard = createRepeatToolGuard({ errorRuns: { after: 2 }, argumentsPreviewChars })
    const events = recordEvents(guard)
    const agent = {}
    guard.observe({ agent, name: 'api', arguments: { n: 1 } }, { isError: true, content: 'first' })
    const text = guard.observe({ agent, name: 'api', arguments: { n: 2 } }, result)?.content[0].text
    expect(ofType(events, 'fault')).toEqual([])
    return text?.split('\n')[3]
  }

  it('joins the text parts with line breaks and writes any other part canonical', () => {
    const content = [
      { type: 'text', text: 'rate limited' },
      { type: 'image', mimeType: 'image/png', data: 'AA==' },
      { type: 'text', text: 'retry in 30s' },
    ]
    const guard = createRepeatToolGuard({ errorRuns: { after: 2 } })
    const agent = {}
    guard.observe({ agent, name: 'api', arguments: 1 }, { isError: true })
    const text = guard.observe({ agent, name: 'api', arguments: 2 }, { isError: true, content })!.content[0].text
    expect(text).toBe(errorRunText('api', 2, 'rate limited\n{"data":"AA==","mimeType":"image/png","type":"image"}\nretry in 30s'))
  })

  it('writes other content canonical, no content as nothing, and cuts by argumentsPreviewChars', () => {
    expect(lastError({ isError: true, content: { status: 500, error: 'boom' } })).toBe('- last_error: {"error":"boom","status":500}')
    expect(lastError({ isError: true })).toBe('- last_error: ')
    expect(lastError({ isError: true, content: 'x'.repeat(30) }, 10)).toBe('- last_error: xxxxxxxxxx… (+20 more chars)')
  })

  it('still reminds when reading the content throws', () => {
    const throwingContent = {
      isError: true,
      get content(): unknown {
        throw new Error('gone')
      },
    }
    expect(lastError(throwingContent)).toBe('- last_error: ')
    const throwingPart = [
      {
        get type(): string {
          throw new Error('no type')
        },
      },
    ]
    expect(lastError({ isError: true, content: throwingPart })).toBe('- last_error: [{"type":"[Thrown: no type]"}]')
  })
})
