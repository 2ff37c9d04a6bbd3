import { describe, expect, it } from 'vitest'
import { createRepeatToolGuard } from '../../../engine/index.ts'
import type { Tool } from './support/agent-loop.ts'
import { ofType, recordEvents } from './support/events.ts'
import { firedAt, textsIn } from './support/fired.ts'
import { replayedCounts } from './support/replay.ts'
import { oneCallPerStep, runScenario, times, tools } from './support/scenario.ts'
import { detailed, GENTLE } from './support/texts.ts'

const POLL = ['poll_job', { id: 'job-7' }] as const

/** A job that makes progress on every poll, so every result differs from the last. */
function progressingJob(): Tool {
  let polls = 0
  return () => JSON.stringify({ id: 'job-7', status: 'running', progress: ++polls * 10 })
}

/** A job that is stuck: the same status, with a fresh timestamp and request id on every poll. */
function stuckJob(): Tool {
  let polls = 0
  return () => {
    polls += 1
    return JSON.stringify({ status: 'running', meta: { timestamp: 1_700_000_000 + polls, trace: [{ requestId: `r${polls}`, hop: 1 }] } })
  }
}

describe('result-aware runs', () => {
  it('sends no reminder for a poll whose result changes, and says why the run restarted', async () => {
    const { agent, events } = await runScenario(oneCallPerStep(times(9, POLL)), { resultAware: true }, { tools: { ...tools, poll_job: progressingJob() } })
    expect(firedAt(agent.history)).toEqual([])
    expect(ofType(events, 'call').map((e) => e.count)).toEqual(times(9, 1))
    expect(ofType(events, 'chain-reset').map((e) => [e.reason, e.previousCount])).toEqual(times(8, ['result-changed', 1]))
  })

  it('sends the original reminders for the same poll without resultAware', async () => {
    const { agent } = await runScenario(oneCallPerStep(times(9, POLL)), undefined, { tools: { ...tools, poll_job: progressingJob() } })
    expect(firedAt(agent.history)).toEqual([
      [3, 'poll_job × 3'],
      [5, 'poll_job × 5'],
      [8, 'poll_job × 8'],
    ])
    expect(textsIn(agent.history)).toEqual([GENTLE, detailed('poll_job', 5, '{"id":"job-7"}'), detailed('poll_job', 8, '{"id":"job-7"}')])
  })

  it('reminds as the original when the results are the same, with the repeat detector named', async () => {
    const { agent, events } = await runScenario(oneCallPerStep(times(5, POLL)), { resultAware: true }, { tools: { ...tools, poll_job: () => 'still running' } })
    expect(textsIn(agent.history)).toEqual([GENTLE, detailed('poll_job', 5, '{"id":"job-7"}')])
    expect(ofType(events, 'reminder').map((e) => e.detector)).toEqual(['repeat', 'repeat'])
  })

  it('compares results without the ignored keys, at any depth', async () => {
    const config = { resultAware: true, ignoreResultKeys: ['timestamp', 'requestId'] }
    const ignoring = await runScenario(oneCallPerStep(times(5, POLL)), config, { tools: { ...tools, poll_job: stuckJob() } })
    expect(firedAt(ignoring.agent.history)).toEqual([
      [3, 'poll_job × 3'],
      [5, 'poll_job × 5'],
    ])
    const comparingAll = await runScenario(oneCallPerStep(times(5, POLL)), { resultAware: true }, { tools: { ...tools, poll_job: stuckJob() } })
    expect(firedAt(comparingAll.agent.history)).toEqual([])
  })

  it('still tells results apart by the keys that are kept', async () => {
    const config = { resultAware: true, ignoreResultKeys: ['timestamp'] }
    const { agent } = await runScenario(oneCallPerStep(times(5, POLL)), config, { tools: { ...tools, poll_job: stuckJob() } })
    // The request id in the nested trace still changes.
    expect(firedAt(agent.history)).toEqual([])
  })
})

describe('result keys', () => {
  it('treats results without content as equal, and an error as a different result', () => {
    const guard = createRepeatToolGuard({ resultAware: true, thresholds: [2] })
    const events = recordEvents(guard)
    const agent = {}
    const call = { agent, name: 'poll_job', arguments: { id: 1 } }
    expect(guard.observe(call)).toBeUndefined()
    expect(guard.observe(call, {})?.content[0].text).toBe(GENTLE)
    expect(guard.observe(call, { isError: true })).toBeUndefined()
    expect(guard.observe(call, { isError: true, content: undefined })?.content[0].text).toBe(GENTLE)
    expect(guard.observe(call, { content: undefined })).toBeUndefined()
    expect(ofType(events, 'call').map((e) => e.count)).toEqual([1, 2, 1, 2, 1])
    expect(ofType(events, 'chain-reset').map((e) => e.reason)).toEqual(['result-changed', 'result-changed'])
  })

  it('compares content as canonical.ts writes it: an empty text is content, and no content reads as undefined', () => {
    const config = { resultAware: true, thresholds: [9] }
    const guard = createRepeatToolGuard(config)
    const events = recordEvents(guard)
    const agent = {}
    const call = { agent, name: 'poll_job', arguments: { id: 1 } }
    for (const result of [{ content: '' }, {}, { content: undefined }, { content: 'undefined' }, { content: () => 'left out' }, { content: '' }]) guard.observe(call, result)
    expect(ofType(events, 'call').map((e) => [e.count, e.result])).toEqual([
      [1, ''],
      [1, undefined],
      [2, undefined],
      [3, 'undefined'],
      [4, undefined],
      [1, ''],
    ])
    expect(replayedCounts(events, config)).toEqual([1, 1, 2, 3, 4, 1])
  })

  it('counts a denied call in the run of the same call, and compares the next result with the last real one', () => {
    const guard = createRepeatToolGuard({ resultAware: true, thresholds: [9] })
    const events = recordEvents(guard)
    const agent = {}
    const call = { agent, name: 'poll_job', arguments: { id: 1 } }
    guard.observe(call, { denied: true, isError: true, content: 'Permission denied' })
    guard.observe(call, { content: 'running' })
    guard.observe(call, { content: 'running' })
    guard.observe(call, { denied: true, content: 'refused' })
    guard.observe(call, { content: 'running' })
    guard.observe(call, { denied: true })
    guard.observe(call, { content: 'done' })
    expect(ofType(events, 'call').map((e) => e.count)).toEqual([1, 2, 3, 4, 5, 6, 1])
    expect(ofType(events, 'chain-reset').map((e) => e.reason)).toEqual(['result-changed'])
  })

  it('compares content canonically: key order and JSON text do not matter, any value is safe', () => {
    const guard = createRepeatToolGuard({ resultAware: true, ignoreResultKeys: ['at'], thresholds: [4] })
    const events = recordEvents(guard)
    const agent = {}
    const call = { agent, name: 'status', arguments: {} }
    const cyclic: Record<string, unknown> = { b: 1, a: [1, { at: 2 }] }
    cyclic.self = cyclic
    guard.observe(call, { content: { a: [1, { at: 1 }], b: 1, self: '[Circular]' } })
    guard.observe(call, { content: cyclic })
    guard.observe(call, { content: '{"b":1,"self":"[Circular]","a":[1,{"at":3}]}' })
    expect(
      guard.observe(call, {
        content: {
          get a(): never {
            throw new Error('gone')
          },
        },
      }),
    ).toBeUndefined()
    expect(ofType(events, 'call').map((e) => e.count)).toEqual([1, 2, 3, 1])
  })

  it('compares text content as it is when keys are ignored, and keeps a __proto__ key', () => {
    const guard = createRepeatToolGuard({ resultAware: true, ignoreResultKeys: ['at'], thresholds: [2] })
    const events = recordEvents(guard)
    const agent = {}
    const call = { agent, name: 'status', arguments: {} }
    guard.observe(call, { content: '{not json' })
    expect(guard.observe(call, { content: '{not json' })).toBeDefined()
    guard.observe(call, { content: '{"__proto__":{"at":1,"x":1}}' })
    expect(guard.observe(call, { content: '{"__proto__":{"at":2,"x":1}}' })).toBeDefined()
    guard.observe(call, { content: '{"__proto__":{"x":2}}' })
    expect(ofType(events, 'call').map((e) => e.count)).toEqual([1, 2, 1, 2, 1])
  })
})

describe('the result on call events', () => {
  function callResults(config: Parameters<typeof createRepeatToolGuard>[0], results: readonly Parameters<ReturnType<typeof createRepeatToolGuard>['observe']>[1][]) {
    const guard = createRepeatToolGuard(config)
    const seen: (string | undefined)[] = []
    const keys: boolean[] = []
    guard.subscribe((event) => {
      if (event.type !== 'call') return
      seen.push(event.result)
      keys.push(Object.hasOwn(event, 'result'))
    })
    const agent = {}
    for (const result of results) guard.observe({ agent, name: 'poll_job', arguments: { id: 1 } }, result)
    return { seen, keys }
  }

  it('carries what a result-aware run compares: text as it came, other content canonical without the ignored keys', () => {
    const { seen } = callResults({ resultAware: true, ignoreResultKeys: ['at'] }, [{ content: 'running 1/4' }, { content: { b: 2, a: 1, at: 5 } }, { content: 'x', denied: true }, {}, undefined])
    // With keys to ignore, the compared form is the content's canonical form without them:
    // replayed as content, it compares as the original did.
    expect(seen).toEqual(['running 1/4', '{"a":1,"b":2}', undefined, undefined, undefined])
    expect(callResults({ resultAware: true }, [{ content: { b: 2, a: 1 } }]).seen).toEqual(['{"a":1,"b":2}'])
  })

  it('is absent without resultAware, so the original events stay as they were', () => {
    expect(callResults({}, [{ content: 'running 1/4' }]).keys).toEqual([false])
    expect(callResults({ tools: [{ match: 'other', resultAware: true }] }, [{ content: 'running 1/4' }]).keys).toEqual([false])
    expect(callResults({ tools: [{ match: 'poll_*', resultAware: true }] }, [{ content: 'running 1/4' }]).seen).toEqual(['running 1/4'])
  })
})
