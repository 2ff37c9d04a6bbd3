// Chains through an agent loop: what makes two calls one run, which tools count, and where each
// reminder fires.
import { describe, expect, it } from 'vitest'
import { RECOMMENDED_CONFIG } from '../../../engine/index.ts'
import { ofType } from './support/events.ts'
import { oneCallPerStep, remindersIn, runScenario, textOf, times } from './support/scenario.ts'
import { detailed, GENTLE } from './support/texts.ts'
import { GREP, GREP_ARGS, resultNumber } from './support/chain-loop.ts'

describe('chains through an agent loop', () => {
  it('reminds exactly at each threshold: gentle at 3, detailed at 5 and 8, then nothing', async () => {
    const { agent, events } = await runScenario(oneCallPerStep(times(12, ['grep', GREP])))
    const reminders = remindersIn(agent.history)
    expect(reminders.map(({ after }) => resultNumber(agent.history, after))).toEqual([3, 5, 8])
    expect(reminders.map(({ reminder }) => textOf(reminder))).toEqual([GENTLE, detailed('grep', 5, GREP_ARGS), detailed('grep', 8, GREP_ARGS)])
    expect(ofType(events, 'call').map((e) => e.count)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12])
    expect(ofType(events, 'call').map((e) => e.nextThreshold)).toEqual([3, 3, 5, 5, 8, 8, 8, null, null, null, null, null])
  })

  it('keeps a run going through an excluded bookkeeping tool', async () => {
    const script = oneCallPerStep([
      ['grep', GREP],
      ['todo_write', { todos: ['a'] }],
      ['grep', GREP],
      ['todo_write', { todos: ['b'] }],
      ['grep', GREP],
    ])
    const { agent, events } = await runScenario(script, RECOMMENDED_CONFIG)
    const [only, ...rest] = remindersIn(agent.history)
    expect(rest).toEqual([])
    expect(textOf(only!.reminder)).toBe(GENTLE)
    expect(only!.after).toMatchObject({ role: 'tool', content: [{ name: 'grep', id: 'call_5_1' }] })
    const calls = ofType(events, 'call').map(({ tool, tracked, count }) => [tool, tracked, count])
    expect(calls).toEqual([
      ['grep', true, 1],
      ['todo_write', false, 1],
      ['grep', true, 2],
      ['todo_write', false, 2],
      ['grep', true, 3],
    ])
    expect(ofType(events, 'chain-reset')).toEqual([])
  })

  it('lets a tracked bookkeeping tool break the run when it is not excluded', async () => {
    const script = oneCallPerStep([
      ['grep', GREP],
      ['todo_write', { todos: ['a'] }],
      ['grep', GREP],
      ['todo_write', { todos: ['a'] }],
      ['grep', GREP],
    ])
    const { agent, events } = await runScenario(script)
    expect(remindersIn(agent.history)).toEqual([])
    expect(ofType(events, 'call').map((e) => e.count)).toEqual([1, 1, 1, 1, 1])
    expect(ofType(events, 'chain-reset').map(({ reason, previousCount }) => [reason, previousCount])).toEqual(times(4, ['different-call', 1]))
  })

  it('tracks only the tools `include` names; the others are transparent', async () => {
    const script = oneCallPerStep([
      ['grep', GREP],
      ['read_file', { path: 'a' }],
      ['grep', GREP],
      ['read_file', { path: 'b' }],
      ['grep', GREP],
    ])
    const { agent, events } = await runScenario(script, { include: ['gr*'] })
    expect(remindersIn(agent.history).map(({ after }) => resultNumber(agent.history, after))).toEqual([5])
    expect(ofType(events, 'call').map((e) => e.tracked)).toEqual([true, false, true, false, true])
  })

  it('treats objects that differ only in key order, or arrive as JSON text, as the same call', async () => {
    const script = oneCallPerStep([
      ['grep', { pattern: 'TODO', path: 'src' }],
      ['grep', { path: 'src', pattern: 'TODO' }],
      ['grep', ' {"path": "src", "pattern": "TODO"}\n'],
    ])
    const { agent, events } = await runScenario(script)
    expect(remindersIn(agent.history).map(({ reminder }) => textOf(reminder))).toEqual([GENTLE])
    expect(new Set(ofType(events, 'call').map((e) => e.canonicalArguments))).toEqual(new Set([GREP_ARGS]))
  })

  it('treats arrays in a different order as different calls', async () => {
    const script = oneCallPerStep([
      ['read_file', { path: ['a', 'b'] }],
      ['read_file', { path: ['b', 'a'] }],
      ['read_file', { path: ['a', 'b'] }],
    ])
    const { agent, events } = await runScenario(script, { thresholds: [2] })
    expect(remindersIn(agent.history)).toEqual([])
    expect(ofType(events, 'call').map((e) => e.count)).toEqual([1, 1, 1])
  })

  it('compares the whole payload, not the preview: a difference after the cap is a different call', async () => {
    const head = 'x'.repeat(200)
    const a = { path: 'big.txt', content: `${head}A` }
    const b = { path: 'big.txt', content: `${head}B` }
    const script = oneCallPerStep([
      ['write_file', a],
      ['write_file', b],
      ['write_file', a],
      ['write_file', b],
      ['write_file', b],
      ['write_file', b],
    ])
    const { agent, events } = await runScenario(script, { thresholds: [2, 3], argumentsPreviewChars: 40 })
    expect(ofType(events, 'call').map((e) => e.count)).toEqual([1, 1, 1, 1, 2, 3])
    const reminders = remindersIn(agent.history).map(({ reminder }) => textOf(reminder))
    const canonical = JSON.stringify({ content: b.content, path: b.path })
    const preview = `${canonical.slice(0, 40)}… (+${canonical.length - 40} more chars)`
    expect(reminders).toEqual([GENTLE, detailed('write_file', 3, preview)])
    // The reminder bounds the payload; the event keeps the full canonical form.
    expect(ofType(events, 'reminder')[1]!.message.content[0].text).not.toContain('B')
    expect(ofType(events, 'call')[5]!.canonicalArguments).toBe(canonical)
  })

  it('fires the lowest threshold as the gentle reminder when thresholds are given out of order', async () => {
    const { agent, guard } = await runScenario(oneCallPerStep(times(9, ['grep', GREP])), { thresholds: [8, 3, 5] })
    expect(guard.config.thresholds).toEqual([3, 5, 8])
    expect(remindersIn(agent.history).map(({ reminder }) => reminder.source.summary)).toEqual(['grep × 3', 'grep × 5', 'grep × 8'])
    expect(textOf(remindersIn(agent.history)[0]!.reminder)).toBe(GENTLE)
  })
})
