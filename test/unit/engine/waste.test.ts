// `wasteMs` on reminder and blocked events: the time from the first call of the run that fired to
// the call that fired it, present whenever an opt-in detector is on (docs/detectors.md, "Waste").
// The engine reads the clock it captured when it loaded, so the tests bound what it can have read
// by reading the clock around each call: the run's start lies between the reads around its first
// call, the firing call's time between the reads around that one.
import { describe, expect, it } from 'vitest'
import { createRepeatToolGuard, type GuardConfigInput, type ToolResult } from '../../../engine/index.ts'
import { ofType, recordEvents } from './support/events.ts'

/** Waits until the clock has moved on by `ms`: a run's calls that take time, not a sleep before a check. */
function spin(ms: number): void {
  const until = Date.now() + ms
  while (Date.now() < until) {
    // busy: the clock must move while the calls are made
  }
}

type Step = readonly [name: string, args: unknown, result?: ToolResult]

/**
 * Makes `steps` one by one with `gapMs` between them; returns the reminder events and the bounds
 * of the waste each could report had its run started at step `from` (counted from 0).
 */
function run(config: GuardConfigInput, steps: readonly Step[], from: number, gapMs = 15) {
  const guard = createRepeatToolGuard(config)
  const events = recordEvents(guard)
  const agent = {}
  const around: [number, number][] = []
  steps.forEach(([name, args, result], i) => {
    if (i > 0) spin(gapMs)
    const before = Date.now()
    guard.observe({ agent, name, arguments: args }, result)
    around.push([before, Date.now()])
  })
  const last = around.at(-1)!
  const first = around[from]!
  return { guard, agent, reminders: ofType(events, 'reminder'), events, first, bounds: [last[0] - first[1], last[1] - first[0]] as const }
}

const within = (value: number | undefined, [low, high]: readonly [number, number]) => {
  expect(value).toBeGreaterThanOrEqual(low)
  expect(value).toBeLessThanOrEqual(high)
}

describe('wasteMs', () => {
  it("gives a run's time from its own first call, not the agent's first, through repeats found by their shape", () => {
    const steps: Step[] = [['read_file', { path: 'other' }], ...Array.from({ length: 3 }, (): Step => ['grep', { q: 'TODO' }])]
    const { reminders, bounds } = run({ thresholds: [3], cycles: { maxPeriod: 2, repeats: 9 } }, steps, 1)
    expect(reminders.map((e) => e.detector)).toEqual(['repeat'])
    within(reminders[0]!.wasteMs, bounds)
    expect(bounds[0]).toBeGreaterThanOrEqual(30)
  })

  it('times a run begun before a configure turned a detector on from its first call since', () => {
    const guard = createRepeatToolGuard({ thresholds: [4] })
    const events = recordEvents(guard)
    const agent = {}
    const grep = () => guard.observe({ agent, name: 'grep', arguments: { q: 1 } })
    grep()
    grep()
    spin(15)
    guard.configure({ errorRuns: { after: 5 } })
    spin(15)
    grep()
    const before = Date.now()
    spin(15)
    grep()
    const after = Date.now()
    const [reminder] = ofType(events, 'reminder')
    expect(reminder).toMatchObject({ detector: 'repeat', count: 4 })
    expect(reminder!.wasteMs).toBeGreaterThanOrEqual(15)
    expect(reminder!.wasteMs).toBeLessThanOrEqual(after - before + 15)
    // A reminder on the very call that started the timing reports no time spent.
    const fresh = createRepeatToolGuard({ thresholds: [2] })
    const freshEvents = recordEvents(fresh)
    fresh.observe({ agent, name: 'grep', arguments: {} })
    fresh.configure({ errorRuns: { after: 5 } })
    fresh.observe({ agent, name: 'grep', arguments: {} })
    expect(ofType(freshEvents, 'reminder').map((e) => e.wasteMs)).toEqual([0])
  })

  it('is left out, with the detector, while every detector is off', () => {
    const { reminders } = run(
      {},
      [
        ['grep', {}],
        ['grep', {}],
        ['grep', {}],
      ],
      0,
      0,
    )
    expect(reminders).toHaveLength(1)
    expect(Object.keys(reminders[0]!)).not.toContain('wasteMs')
  })

  it("gives an error run's time from its first error", () => {
    const fail: ToolResult = { isError: true, content: 'down' }
    const steps: Step[] = [
      ['fetch', { n: 0 }],
      ['fetch', { n: 1 }, fail],
      ['fetch', { n: 2 }, fail],
      ['fetch', { n: 3 }, fail],
    ]
    const { reminders, bounds } = run({ errorRuns: { after: 3 } }, steps, 1)
    expect(reminders.map((e) => [e.detector, e.count])).toEqual([['error-run', 3]])
    within(reminders[0]!.wasteMs, bounds)
  })

  it("gives a near-repeat run's time from its first call", () => {
    const steps: Step[] = ['list open pull requests', 'configure auth', 'configure authentication', 'auth configuration'].map((query): Step => ['search', { query }])
    const { reminders, bounds } = run({ similar: { threshold: 0.7, minCalls: 3 } }, steps, 1)
    expect(reminders.map((e) => [e.detector, e.count])).toEqual([['similar', 3]])
    within(reminders[0]!.wasteMs, bounds)
  })

  it("gives a cycle's time from the first call of its second period, where it is first seen", () => {
    const steps: Step[] = [
      ['list_dir', {}],
      ['grep', { q: 1 }],
      ['read_file', { p: 1 }],
      ['grep', { q: 1 }],
      ['read_file', { p: 1 }],
    ]
    const { reminders, bounds } = run({ cycles: { maxPeriod: 2, repeats: 2 } }, steps, 3)
    expect(reminders.map((e) => [e.detector, e.count])).toEqual([['cycle', 2]])
    within(reminders[0]!.wasteMs, bounds)
  })

  it("gives a blocked call the time from its run's first call", () => {
    const steps: Step[] = [
      ['read_file', {}],
      ['grep', { q: 1 }],
      ['grep', { q: 1 }],
    ]
    const { guard, agent, events, first } = run({ stopAfter: 2 }, steps, 1)
    spin(15)
    const before = Date.now()
    expect(guard.preExecute({ agent, name: 'grep', arguments: { q: 1 } }).kind).toBe('block')
    const after = Date.now()
    const [blocked] = ofType(events, 'blocked')
    within(blocked!.wasteMs, [before - first[1], after - first[0]])
    expect(before - first[1]).toBeGreaterThanOrEqual(30)
  })
})
