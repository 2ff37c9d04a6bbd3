// Zero-code mode's costs, as ratios against baselines measured in the same run, alternating
// baseline and measured batches so load from elsewhere falls on both alike. Nothing here asserts
// on time: a missed target shows as `NO` in the `met` column. (The fetch pass-through, in
// Chromium, is fetch-pass-through.bench.ts.)
//
// - Analysis and rewrite: one 2 MB conversation body through the wire guard (parse, walk, chain
//   rules, splice) against one JSON.parse of the same body, in Node (pure engine code).
// - Detectors: the same analysis with every opt-in detector on, against the defaults.
// - Responses continued by id: a request that sends only its outputs, guarded over the chain of
//   responses remembered from the page's tees, against one JSON.parse of the stateless body that
//   would carry the same conversation.
import { afterAll, expect, it } from 'vitest'
import { RECOMMENDED_CONFIG, resolveConfig, type GuardConfig, type GuardConfigInput } from '../engine/index.ts'
import { createWireGuard, type WireGuard } from '../engine/wire/index.ts'
import { createStatefulResponses } from '../engine/wire/stateful/responses.ts'
import { anthropicBody, openaiChatBody, openaiResponsesBody, type Body } from '../test/fixtures/wire/conversations.ts'
import { keepForResults } from './support/results.ts'
import type { SpreadRow } from './support/spread-row.ts'
import { chainOf, session } from './support/wire-conversations.ts'
import { type Arm, inspecting, PER_ROUND, timeRounds } from './support/wire-rounds.ts'

const rows: SpreadRow[] = []
keepForResults('zero-code mode: analysis and rewrite (Node)', () => rows)

afterAll(() => {
  console.log('\nzero-code mode (ratio: median over rounds; spread: 25th–75th percentile of the rounds; interval: where the median falls 95 times in 100)')
  console.table(rows)
})

it('analysis and rewrite of a 2 MB conversation cost at most a second JSON.parse', () => {
  const cases = [
    ['Chat Completions', openaiChatBody, 120],
    ['Anthropic Messages', anthropicBody, 120],
    // Reminders early in a long history: they stay where they were, far from the end.
    ['Chat Completions, looped at step 3 of 120', openaiChatBody, 3],
  ] as const
  for (const [format, build, loopAt] of cases) {
    const script = session(120, 16_500, loopAt)
    const text = JSON.stringify(build(script))
    const previous = JSON.stringify(build({ ...script, turns: script.turns.slice(0, -1) }) as Body)
    const label = `${(text.length / 1024 / 1024).toFixed(1)} MB ${format}`
    // First sight: every call of the history goes through the chain rules.
    compare(`analysis + rewrite: ${label}, first sight`, text, () => createWireGuard())
    // The steady state: the conversation is known up to the step before.
    compare(`analysis + rewrite: ${label}, next request`, text, () => {
      const guard = createWireGuard()
      guard.inspect(previous, RECOMMENDED_CONFIG)
      return guard
    })
  }
})

function compare(name: string, text: string, prepare: () => WireGuard): void {
  let inserted = 0
  rows.push(timeRounds(name, [() => () => JSON.parse(text), inspecting(text, RECOMMENDED_CONFIG, prepare, (events) => (inserted = events))], 2))
  expect(inserted).toBeGreaterThan(0)
}

// Every opt-in detector at once, on tools the session really calls.
const EVERY_OPTION: GuardConfigInput = {
  resultAware: true,
  ignoreResultKeys: ['timestamp', 'requestId'],
  cycles: { maxPeriod: 6, repeats: 2 },
  stopAfter: 4,
  tools: [
    { match: 'grep', countBy: 'tool', thresholds: [2, 4] },
    { match: 'list_dir', resultAware: false },
  ],
}

it('every detector on costs little more than the defaults on a 2 MB conversation', () => {
  const script = session(120, 16_500, 60)
  const text = JSON.stringify(openaiChatBody(script))
  const previous = JSON.stringify(openaiChatBody({ ...script, turns: script.turns.slice(0, -1) }))
  const everyOption = resolveConfig(EVERY_OPTION, RECOMMENDED_CONFIG)
  const label = `${(text.length / 1024 / 1024).toFixed(1)} MB Chat Completions`
  const firstSight = () => () => createWireGuard()
  // The steady state: each guard has seen the previous request under the config it is timed with.
  const nextRequest = (config: GuardConfig) => () => {
    const guard = createWireGuard()
    guard.inspect(previous, config)
    return guard
  }
  // The options do fire on this session: the loop is a run of stopAfter and more.
  const sample = createWireGuard().inspect(text, everyOption)!.events
  expect(sample.filter((event) => event.type === 'blocked').length).toBeGreaterThan(0)
  for (const [when, prepare] of [
    ['first sight', firstSight],
    ['next request', nextRequest],
  ] as const) {
    let inspected = 0
    const arm = (config: GuardConfig) => inspecting(text, config, prepare(config), () => (inspected += 1))
    rows.push(timeRounds(`detectors: ${label}, ${when}, every option on (baseline: none)`, [arm(RECOMMENDED_CONFIG), arm(everyOption)], 1.5))
    expect(inspected).toBe(2 * 24 * PER_ROUND)
  }
})

it('a request continued by id, guarded over its chain, costs less than parsing the stateless body', () => {
  const script = session(120, 16_500, 117)
  const stateless = openaiResponsesBody(script)
  const text = JSON.stringify(stateless)
  const stateful = createStatefulResponses()
  const { last, previous } = chainOf(stateless, stateful)
  let inserted = 0
  // The steady state: the chain is known up to the response before, its request was guarded.
  const guarded: Arm = () => {
    const guards = Array.from({ length: PER_ROUND }, () => {
      const guard = createWireGuard()
      stateful.inspect(guard, previous, RECOMMENDED_CONFIG)
      return guard
    })
    return (index) => void (inserted = stateful.inspect(guards[index]!, last, RECOMMENDED_CONFIG)!.events.length)
  }
  const label = `${(text.length / 1024 / 1024).toFixed(1)} MB Responses conversation, ${last.text.length} B request continuing a chain of 120 responses`
  rows.push(timeRounds(`continued by id: ${label} (baseline: JSON.parse of the stateless body)`, [() => () => JSON.parse(text), guarded], 2))
  expect(inserted).toBeGreaterThan(0)
})
