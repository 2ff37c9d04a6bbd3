// A result-aware repeat with the same result text moves its run's count without serialising the
// arguments or the result again, and fires the same reminders as without results.
import { describe, expect, it, vi } from 'vitest'
import { createRepeatToolGuard } from '../../../engine/index.ts'
import { serialisationsIn } from './support/counted-serialisation.ts'
import { ofType, recordEvents } from './support/events.ts'

// Counts the canonical serialisations the guard asks for; the function itself is the real one.
vi.mock('../../../engine/canonical.ts', async (importOriginal) => (await import('./support/counted-serialisation.ts')).countedCanonical(importOriginal))

describe('a result-aware repeat with the same result text', () => {
  const POLL = { id: 'job-7' }

  /** A guard with `config`, one agent, and a poll that reports `content`; the events it emitted. */
  function poller(config: Parameters<typeof createRepeatToolGuard>[0]) {
    const guard = createRepeatToolGuard(config)
    const events = recordEvents(guard)
    const agent = {}
    const poll = (result: Parameters<typeof guard.observe>[1], args: unknown = POLL) => guard.observe({ agent, name: 'poll_job', arguments: args }, result)
    return { guard, events, poll }
  }

  it('moves the count alone, and fires the same reminders at the same thresholds as without results', () => {
    const aware = poller({ resultAware: true })
    const plain = poller({})
    const awareCosts = Array.from({ length: 10 }, () => serialisationsIn(() => aware.poll({ content: 'pending' })))
    for (let i = 0; i < 10; i++) plain.poll({ content: 'pending' })
    // The arguments are serialised for the first two calls; the same text is never made canonical.
    expect(awareCosts).toEqual([1, 1, 0, 0, 0, 0, 0, 0, 0, 0])
    const reminders = (events: typeof aware.events) => ofType(events, 'reminder').map(({ count, message, level }) => ({ count, level, message }))
    expect(ofType(aware.events, 'reminder').map((e) => e.count)).toEqual([3, 5, 8])
    expect(reminders(aware.events)).toEqual(reminders(plain.events))
    expect(ofType(aware.events, 'call').map((e) => [e.count, e.result])).toEqual(Array.from({ length: 10 }, (_, i) => [i + 1, 'pending']))
    expect(ofType(aware.events, 'chain-reset')).toEqual([])
    expect(aware.guard.snapshot()[0]).toMatchObject({ count: 10, canonicalArguments: '{"id":"job-7"}', nextThreshold: null })
  })

  it('counts content that is not text as before, by its canonical form every call', () => {
    const { guard, events, poll } = poller({ resultAware: true })
    const costs = Array.from({ length: 5 }, (_, i) => serialisationsIn(() => poll({ content: i % 2 === 0 ? { b: 1, a: 2 } : { a: 2, b: 1 } })))
    // The result is serialised every call, the arguments only for the first two.
    expect(costs).toEqual([2, 2, 1, 1, 1])
    expect(ofType(events, 'call').map((e) => e.count)).toEqual([1, 2, 3, 4, 5])
    expect(ofType(events, 'reminder').map((e) => e.count)).toEqual([3, 5])
    expect(guard.snapshot()[0]!.count).toBe(5)
  })

  it('ends the run on a different text, or on the same text with another error flag', () => {
    const { guard, events, poll } = poller({ resultAware: true, thresholds: [3] })
    const fired = [1, 2, 3, 4].map(() => poll({ content: 'pending' }) !== undefined)
    expect(fired).toEqual([false, false, true, false])
    // Different text: compared by the canonical forms, which differ.
    expect(serialisationsIn(() => poll({ content: 'done' }))).toBe(2)
    expect(guard.snapshot()[0]!.count).toBe(1)
    expect([poll({ content: 'done' }), poll({ content: 'done' })].map((m) => m !== undefined)).toEqual([false, true])
    expect(guard.snapshot()[0]!.count).toBe(3)
    // The same text, now an error.
    poll({ content: 'done', isError: true })
    expect(guard.snapshot()[0]!.count).toBe(1)
    poll({ content: 'done', isError: true })
    poll({ content: 'done', isError: true })
    expect(guard.snapshot()[0]!.count).toBe(3)
    // Other arguments, the same text: a different call.
    poll({ content: 'done', isError: true }, { id: 'job-8' })
    expect(ofType(events, 'chain-reset').map((e) => [e.reason, e.previousCount])).toEqual([
      ['result-changed', 4],
      ['result-changed', 3],
      ['different-call', 3],
    ])
  })

  it('still counts a different text that reads the same once the ignored keys are removed', () => {
    const { guard, events, poll } = poller({ resultAware: true, ignoreResultKeys: ['at'] })
    for (let at = 1; at <= 5; at++) poll({ content: `{"status":"running","at":${at}}` })
    poll({ content: '{"status":"running","at":5}' })
    expect(ofType(events, 'call').map((e) => e.count)).toEqual([1, 2, 3, 4, 5, 6])
    expect(ofType(events, 'reminder').map((e) => e.count)).toEqual([3, 5])
    poll({ content: '{"status":"done","at":6}' })
    expect(guard.snapshot()[0]!.count).toBe(1)
  })

  it('counts a denied call in the run as before, and reads the next repeat as its own call, not the denied one', () => {
    const { events, poll } = poller({ resultAware: true })
    poll({ content: 'running' })
    poll({ content: 'running' })
    poll({ content: 'running' })
    poll({ denied: true, content: 'refused' })
    poll({ content: 'running' })
    poll({ content: 'running' })
    poll({ denied: true })
    poll({ denied: true })
    poll({ content: 'running' })
    poll({ content: 'done' })
    expect(ofType(events, 'call').map((e) => [e.count, e.result])).toEqual([
      [1, 'running'],
      [2, 'running'],
      [3, 'running'],
      [4, undefined],
      [5, 'running'],
      [6, 'running'],
      [7, undefined],
      [8, undefined],
      [9, 'running'],
      [1, 'done'],
    ])
    expect(ofType(events, 'reminder').map((e) => e.count)).toEqual([3, 5, 8])
    expect(ofType(events, 'chain-reset').map((e) => [e.reason, e.previousCount])).toEqual([['result-changed', 9]])
  })

  it('does not let a denied call stand for a later repeat in the cycle window', () => {
    // Two blocks of five that differ in the fourth call's result: no cycle. Had the repeat after
    // the denied call been read as the denied call, whose result matches any, they would match.
    const { events, poll } = poller({ resultAware: true, cycles: { maxPeriod: 5, repeats: 2 }, thresholds: [50] })
    const other = () => poll({ content: 'b' }, { id: 'other' })
    for (const fourth of ['v1', 'v2']) {
      poll({ content: 'v1' })
      poll({ content: 'v1' })
      poll({ denied: true })
      poll({ content: fourth })
      other()
    }
    expect(ofType(events, 'reminder')).toEqual([])
    // The same blocks with the same results: a cycle.
    for (let i = 0; i < 2; i++) {
      poll({ content: 'v1' })
      poll({ content: 'v1' })
      poll({ denied: true })
      poll({ content: 'v1' })
      other()
    }
    expect(ofType(events, 'reminder').map((e) => [e.detector, e.message.source.summary])).toEqual([['cycle', 'cycle × 2']])
  })

  it('leaves the cycle detector firing on A B A B and on blocks that hold a repeat, and not when the results change', () => {
    const cycles = { cycles: { maxPeriod: 4, repeats: 3 }, thresholds: [50] }
    const calls = (poll: ReturnType<typeof poller>['poll'], block: readonly string[], blocks: number, text: (n: number) => string) => {
      for (let n = 0; n < blocks; n++) for (const id of block) poll({ content: id === 'a' ? text(n) : 'b' }, { id })
    }
    const firedIn = (config: Parameters<typeof createRepeatToolGuard>[0], block: readonly string[], text: (n: number) => string) => {
      const { events, poll } = poller(config)
      calls(poll, block, 3, text)
      return ofType(events, 'reminder').map((e) => [e.count, e.detector, e.message.source.summary])
    }
    const same = () => 'pending'
    const changing = (n: number) => `pending ${n}`
    // A B A B A B.
    expect(firedIn({ ...cycles, resultAware: true }, ['a', 'b'], same)).toEqual([[3, 'cycle', 'cycle × 3']])
    // A A A B, three times: the third A of each block takes the short path.
    expect(firedIn({ ...cycles, resultAware: true }, ['a', 'a', 'a', 'b'], same)).toEqual([[3, 'cycle', 'cycle × 3']])
    expect(firedIn(cycles, ['a', 'a', 'a', 'b'], same)).toEqual([[3, 'cycle', 'cycle × 3']])
    // A's result changes from block to block (not within one): no cycle when results count.
    expect(firedIn({ ...cycles, resultAware: true }, ['a', 'a', 'a', 'b'], changing)).toEqual([])
    expect(firedIn({ ...cycles, resultAware: true }, ['a', 'b'], changing)).toEqual([])
    expect(firedIn(cycles, ['a', 'a', 'a', 'b'], changing)).toEqual([[3, 'cycle', 'cycle × 3']])
  })
})
