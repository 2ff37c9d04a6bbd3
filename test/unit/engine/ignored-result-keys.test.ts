// `ignoreResultKeys`: the keys are removed from the result's canonical form, which is also what the
// call event records, so a replay of the recording (the panel's what-if) decides as the live run did.
import { describe, expect, it } from 'vitest'
import { ofType } from './support/events.ts'
import { firedAt } from './support/fired.ts'
import { replayedCounts } from './support/replay.ts'
import type { ToolOutput } from './support/agent-loop.ts'
import { oneCallPerStep, runScenario, times, tools } from './support/scenario.ts'

const POLL = ['poll_job', { id: 'job-7' }] as const
const CONFIG = { resultAware: true, ignoreResultKeys: ['checkedAt'] }

/** Polls a job whose tool answers `outputs` in turn: text, or structured content. */
function polls(outputs: readonly ToolOutput[], config: typeof CONFIG | { resultAware: true } = CONFIG) {
  let poll = 0
  return runScenario(oneCallPerStep(times(outputs.length, POLL)), config, { tools: { ...tools, poll_job: () => outputs[poll++]! } })
}

/** An object `levels` deep, the innermost holding `leaf`: at 256 levels, the deepest the canonical form keeps. */
function nested(levels: number, leaf: string): object {
  let value: object = { leaf }
  for (let level = 1; level < levels; level++) value = { level: value, checkedAt: level }
  return value
}

describe('results with ignored keys', () => {
  it('compares a text result and the same content as an object alike, and records what it compared', async () => {
    const { agent, events } = await polls(['{"status":"done","checkedAt":1}', { status: 'done', checkedAt: 2 }, { checkedAt: 3, status: 'done' }])
    expect(ofType(events, 'call').map((e) => [e.count, e.result])).toEqual([
      [1, '{"status":"done","checkedAt":1}'],
      [2, '{"status":"done"}'],
      [3, '{"status":"done"}'],
    ])
    expect(firedAt(agent.history)).toEqual([[3, 'poll_job × 3']])
    // Replayed from the recording, the calls count as they did live.
    expect(replayedCounts(events, CONFIG)).toEqual([1, 2, 3])
  })

  it('counts a poll whose text changes only in an ignored key, and records the text of each call', async () => {
    const texts = [1, 2, 3, 4].map((at) => `{"status":"running","checkedAt":${at}}`)
    const { agent, events } = await polls([...texts, '{"status":"done","checkedAt":5}'])
    expect(ofType(events, 'call').map((e) => [e.count, e.result])).toEqual([...texts.map((text, i) => [i + 1, text]), [1, '{"status":"done","checkedAt":5}']])
    expect(firedAt(agent.history)).toEqual([[3, 'poll_job × 3']])
    expect(replayedCounts(events, CONFIG)).toEqual([1, 2, 3, 4, 1])
  })

  it('keeps every digit of a number in the content, given as a BigInt or as JSON text', async () => {
    const { events } = await polls([
      '{"id":12345678901234567890,"checkedAt":1}',
      { id: 12345678901234567890n, checkedAt: 2 },
      { id: 12345678901234567891n, checkedAt: 3 },
      '{"checkedAt":4,"id":12345678901234567891}',
    ])
    expect(ofType(events, 'call').map((e) => e.count)).toEqual([1, 2, 1, 2])
    expect(ofType(events, 'chain-reset').map((e) => [e.reason, e.previousCount])).toEqual([['result-changed', 2]])
    expect(ofType(events, 'call')[2]!.result).toBe('{"id":12345678901234567891}')
    expect(replayedCounts(events, CONFIG)).toEqual([1, 2, 1, 2])
  })

  it('tells content apart at the deepest level the canonical form keeps, as it does without ignored keys', async () => {
    const outputs = [nested(256, 'a'), nested(256, 'b'), nested(256, 'b')]
    const ignoring = await polls(outputs)
    expect(ofType(ignoring.events, 'call').map((e) => e.count)).toEqual([1, 1, 2])
    expect(ofType(ignoring.events, 'call')[1]!.result).toBe(`${'{"level":'.repeat(255)}{"leaf":"b"}${'}'.repeat(255)}`)
    expect(replayedCounts(ignoring.events, CONFIG)).toEqual([1, 1, 2])
    const comparingAll = await polls(outputs, { resultAware: true })
    expect(ofType(comparingAll.events, 'call').map((e) => e.count)).toEqual([1, 1, 2])
  })

  it('removes the keys first, between and last in an object, in arrays too, and keeps the members around them', async () => {
    // Sorted, `checkedAt` comes first in the first job, between `at` and `id` in the second, last in `meta`.
    const { events } = await polls([
      {
        checkedAt: 1,
        jobs: [
          { checkedAt: 1, id: 1 },
          { id: 2, at: 'eu', checkedAt: 1 },
        ],
        area: 'eu',
        meta: { b: 1, checkedAt: 1 },
      },
      '{"area":"eu","meta":{"checkedAt":2,"b":1},"jobs":[{"id":1,"checkedAt":2},{"checkedAt":2,"id":2,"at":"eu"}],"checkedAt":2}',
      { jobs: [{ id: 1 }, { id: 2, at: 'us', checkedAt: 3 }], area: 'eu', meta: { b: 1 }, checkedAt: 3 },
    ])
    expect(ofType(events, 'call').map((e) => [e.count, e.result])).toEqual([
      [1, '{"area":"eu","jobs":[{"id":1},{"at":"eu","id":2}],"meta":{"b":1}}'],
      [2, '{"area":"eu","meta":{"checkedAt":2,"b":1},"jobs":[{"id":1,"checkedAt":2},{"checkedAt":2,"id":2,"at":"eu"}],"checkedAt":2}'],
      [1, '{"area":"eu","jobs":[{"id":1},{"at":"us","id":2}],"meta":{"b":1}}'],
    ])
    expect(replayedCounts(events, CONFIG)).toEqual([1, 2, 1])
  })

  it('reads a JSON string as a string: the keys of the JSON it may hold stay', async () => {
    const { events } = await polls(['"{\\"checkedAt\\":1}"', '"{\\"checkedAt\\":2}"', { checkedAt: 3 }, { checkedAt: 4 }])
    expect(ofType(events, 'call').map((e) => [e.count, e.result])).toEqual([
      [1, '"{\\"checkedAt\\":1}"'],
      [1, '"{\\"checkedAt\\":2}"'],
      [1, '{}'],
      [2, '{}'],
    ])
    expect(replayedCounts(events, CONFIG)).toEqual([1, 1, 1, 2])
  })
})
