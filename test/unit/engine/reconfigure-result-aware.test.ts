// `configure` keeps chains (README, "Config"), and so it does when it turns `resultAware` on
// or off: results are compared only between calls that both read one, so a run goes on across
// the change in either direction.
import { describe, expect, it } from 'vitest'
import { createRepeatToolGuard, type GuardConfigInput } from '../../../engine/index.ts'
import { createAgent, runAgent, scriptedModel } from './support/agent-loop.ts'
import { ofType, recordEvents } from './support/events.ts'
import { firedAt } from './support/fired.ts'
import { oneCallPerStep, times, tools } from './support/scenario.ts'

/**
 * Six polls of one job, answered `answers` in turn; the config is changed to `update` while the
 * third poll runs (as the panel applies a config while the agent works), so from the third call on
 * the guard reads the calls under it.
 */
async function pollsReconfigured(config: GuardConfigInput, update: GuardConfigInput, answers: readonly string[]) {
  const guard = createRepeatToolGuard(config)
  const events = recordEvents(guard)
  const agent = createAgent('main')
  let poll = 0
  const poll_job = () => {
    if (++poll === 3) guard.configure(update)
    return answers[poll - 1]!
  }
  const model = scriptedModel(oneCallPerStep(times(answers.length, ['poll_job', { id: 'job-7' }] as const)))
  await runAgent({ guard, agent, model, tools: { ...tools, poll_job }, prompt: 'Wait for job 7.' })
  return { agent, events }
}

describe('turning resultAware on or off in the middle of a run', () => {
  it('turned off, keeps the run: from then on it counts the same call whatever its result', async () => {
    const { agent, events } = await pollsReconfigured({ resultAware: true }, { resultAware: false }, ['queued', 'queued', 'running 1', 'running 2', 'running 3', 'running 4'])
    expect(ofType(events, 'call').map((e) => e.count)).toEqual([1, 2, 3, 4, 5, 6])
    expect(ofType(events, 'chain-reset')).toEqual([])
    expect(firedAt(agent.history)).toEqual([
      [3, 'poll_job × 3'],
      [5, 'poll_job × 5'],
    ])
  })

  it('turned on, keeps the run: the first result read joins it, and the next ones are compared with it', async () => {
    const { agent, events } = await pollsReconfigured({}, { resultAware: true }, ['running 1', 'running 2', 'running 3', 'running 3', 'done', 'done'])
    expect(ofType(events, 'call').map((e) => e.count)).toEqual([1, 2, 3, 4, 1, 2])
    expect(ofType(events, 'chain-reset').map((e) => [e.reason, e.previousCount])).toEqual([['result-changed', 4]])
    expect(firedAt(agent.history)).toEqual([[3, 'poll_job × 3']])
  })

  it('turned on for the tool alone by a tools entry, keeps the run the same way', async () => {
    const { events } = await pollsReconfigured({}, { tools: [{ match: 'poll_*', resultAware: true }] }, ['a', 'b', 'c', 'd', 'd', 'e'])
    expect(ofType(events, 'call').map((e) => e.count)).toEqual([1, 2, 3, 1, 2, 1])
  })
})
