// A repeat's result is checked against the run's last one before it is made a key, and a repeat
// found that way makes none (engine/detectors/result-key.ts). These tests pin that check against
// the one that compares two keys, and the `call` event's result on the path that makes no key.
import { describe, expect, it } from 'vitest'
import { createRepeatToolGuard } from '../../../engine/index.ts'
import { createResultKeys } from '../../../engine/detectors/result-key.ts'
import { ofType, recordEvents } from './support/events.ts'
import { random } from './support/generated-arguments.ts'

const IGNORED = ['timestamp', 'requestId']
const STAMPS = ['1', '2', '"a"', '"b"', 'null', '{"x":1}', '[1]', '-1.5e3', '"\\u0041"']

/** A poll's content: mostly text that differs in the ignored values, sometimes other text or no text. */
function contentFrom(rng: ReturnType<typeof random>): unknown {
  if (rng.chance(0.1)) return rng.pick([undefined, null, { job: 'a', timestamp: 1 }, 12])
  if (rng.chance(0.1)) return rng.pick(['not json', '{"job":"b","timestamp":1}', '{"job":"a", "timestamp":1}', ''])
  return `{"job":"a","timestamp":${rng.pick(STAMPS)},"requestId":${rng.pick(STAMPS)}}`
}

describe('a result checked as a repeat before it is a key', () => {
  it('decides as the check between two keys does, over generated results and flags', () => {
    let repeats = 0
    for (let seed = 1; seed <= 2_000; seed++) {
      const rng = random(seed)
      const keys = createResultKeys(rng.chance(0.8) ? IGNORED : [])
      const flags = () => ({ isError: rng.chance(0.1), denied: rng.chance(0.1) })
      const last = keys.keyOf(contentFrom(rng), flags())
      // Some run's last results have fitted texts before: their template already has its expression.
      if (rng.chance(0.3)) for (let i = 0; i < 9; i++) keys.repeats(last, keys.keyOf(`{"job":"a","timestamp":${i},"requestId":${i}}`, { isError: last.isError, denied: false }))
      const content = contentFrom(rng)
      const flagsOfNext = flags()
      const found = keys.repeatsContent(last, content, flagsOfNext)
      expect(found, `seed ${seed}`).toBe(keys.repeats(last, keys.keyOf(content, flagsOfNext)))
      if (found) repeats++
    }
    // Most pairs are polls of one job: the check answers yes often, not only no.
    expect(repeats).toBeGreaterThan(500)
  })

  it("does not take another config's expression: a text that fits it differs in a key this config keeps", () => {
    const stampsIgnored = createResultKeys(['timestamp'])
    const last = stampsIgnored.keyOf('{"job":"a","timestamp":0}', { isError: false, denied: false })
    // Texts that fit part by part until the template gets its expression (result-template.ts).
    for (let i = 1; i <= 9; i++) expect(stampsIgnored.repeatsContent(last, `{"job":"a","timestamp":${i}}`, { isError: false, denied: false })).toBe(true)
    expect(last.template?.pattern).toBeInstanceOf(RegExp)
    // Another job's result matches no expression of this job's: no repeat, and no same result.
    expect(stampsIgnored.repeatsContent(last, '{"job":"b","timestamp":11}', { isError: false, denied: false })).toBe(false)
    expect(stampsIgnored.same(last, stampsIgnored.keyOf('{"job":"b","timestamp":12}', { isError: false, denied: false }))).toBe(false)
    expect(stampsIgnored.same(last, stampsIgnored.keyOf('{"job":"a","timestamp":13}', { isError: false, denied: false }))).toBe(true)
    const idsIgnored = createResultKeys(['requestId'])
    expect(idsIgnored.repeatsContent(last, '{"job":"a","timestamp":10}', { isError: false, denied: false })).toBe(false)
    expect(idsIgnored.repeatsContent(last, '{"job":"a","timestamp":0}', { isError: false, denied: false })).toBe(true)
  })

  it("takes two results that fitted one template as the same only under that template's keys", () => {
    const flags = { isError: false, denied: false }
    const stampsIgnored = createResultKeys(['timestamp'])
    const first = stampsIgnored.keyOf('{"job":"a","timestamp":0}', flags)
    const second = stampsIgnored.keyOf('{"job":"a","timestamp":1}', flags)
    const third = stampsIgnored.keyOf('{"job":"a","timestamp":2}', flags)
    expect(stampsIgnored.same(first, second)).toBe(true)
    expect(stampsIgnored.same(first, third)).toBe(true)
    // Second and third now share the first's template: the same result to this config, as their texts say.
    expect(second.template).toBe(third.template)
    expect(stampsIgnored.same(second, third)).toBe(true)
    // To a config that keeps the timestamp, the shared template says nothing: they differ.
    const nothingIgnored = createResultKeys(['requestId'])
    expect(nothingIgnored.same(second, third)).toBe(false)
    // A template of no ignored key has no gaps: two keys holding it are compared by their texts.
    const bare = nothingIgnored.keyOf('{"job":"b"}', flags)
    const other = nothingIgnored.keyOf('{"job":"c"}', flags)
    expect(nothingIgnored.same(bare, other)).toBe(false)
    other.template = bare.template
    expect(bare.template?.parts).toBe(null)
    expect(nothingIgnored.same(bare, other)).toBe(false)
  })

  it('finds no repeat without a last result', () => {
    const keys = createResultKeys(IGNORED)
    expect(keys.repeatsContent(undefined, '{"timestamp":1}', { isError: false, denied: false })).toBe(false)
  })

  it("gives each call event its own result text, also when the run's last call stands for the call", () => {
    const guard = createRepeatToolGuard({ resultAware: true, ignoreResultKeys: IGNORED })
    const events = recordEvents(guard)
    const exec = { agent: {}, name: 'poll', arguments: { job: 'a' } }
    const texts = Array.from({ length: 6 }, (_, i) => `{"job":"a","timestamp":${i}}`)
    for (const content of texts) guard.observe(exec, { content })
    const calls = ofType(events, 'call')
    expect(calls.map((e) => e.count)).toEqual([1, 2, 3, 4, 5, 6])
    expect(calls.map((e) => e.result)).toEqual(texts)
    // A denied call did not run: its event has no result, as before.
    guard.observe(exec, { content: texts[0], denied: true })
    expect(ofType(events, 'call').at(-1)).not.toHaveProperty('result')
  })
})
