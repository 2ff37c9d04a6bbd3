// What-if with the detectors: results recorded by a result-aware guard are replayed with their
// content, so a replay compares what the page's guard compared.
import { describe, expect, it } from 'vitest'
import { RECOMMENDED_CONFIG, resolveConfig, type GuardConfigInput } from '../../../../engine/index.ts'
import { createPanelStore } from '../../../../extension/src/panel/store/panel-store.ts'
import { fromEngineEvent } from '../../../../extension/src/protocol/from-engine.ts'
import { LIMITS } from '../../../../extension/src/protocol/events.ts'
import { checkPanelEvent } from '../../../../extension/src/protocol/validate.ts'
import { recordingPage } from './support/recorded-session.ts'

/** Six polls of a job: its result changes on every poll but the last two. */
function polled(config: GuardConfigInput) {
  const store = createPanelStore()
  const page = recordingPage({ ...RECOMMENDED_CONFIG, ...config })
  const agent = { name: 'poller' }
  for (const done of [1, 2, 3, 4, 4, 4]) page.guard.observe({ agent, name: 'poll', arguments: { id: 7 } }, { content: { done, of: 4 } })
  store.ingest(page.batch())
  return store
}

const whatIf = (config: GuardConfigInput) => resolveConfig({ ...RECOMMENDED_CONFIG, ...config })
const marks = (report: ReturnType<ReturnType<typeof polled>['whatIf']>) => report.rows.map((r) => [r.seq, r.change, r.recorded?.level ?? null, r.replayed?.level ?? null])

describe('what-if with recorded results', () => {
  it('replays a result-aware recording as it happened, and without resultAware shows the false alarms it avoided', () => {
    const store = polled({ resultAware: true })
    // Recorded: runs restart on each new result; the last three polls are a run of 3.
    expect(marks(store.whatIf(whatIf({ resultAware: true })))).toEqual([[6, 'same', 'gentle', 'gentle']])
    expect(marks(store.whatIf(whatIf({})))).toEqual([
      [3, 'added', null, 'gentle'],
      [5, 'added', null, 'detailed'],
      [6, 'removed', 'gentle', null],
    ])
  })

  it('without recorded results, a result-aware replay compares results without content, as the original does', () => {
    const store = polled({})
    expect(marks(store.whatIf(whatIf({ resultAware: true })))).toEqual([
      [3, 'same', 'gentle', 'gentle'],
      [5, 'same', 'detailed', 'detailed'],
    ])
  })

  it('replays a recording with ignored result keys and big numbers as it happened', () => {
    const config = { resultAware: true, ignoreResultKeys: ['checkedAt'], thresholds: [2] }
    const store = createPanelStore()
    const page = recordingPage({ ...RECOMMENDED_CONFIG, ...config })
    const agent = { name: 'poller' }
    const results = [
      '{"status":"done","checkedAt":1}',
      { status: 'done', checkedAt: 2 },
      { id: 12345678901234567890n, checkedAt: 3 },
      { id: 12345678901234567891n, checkedAt: 4 },
      '{"id":12345678901234567891,"checkedAt":5}',
    ]
    for (const content of results) page.guard.observe({ agent, name: 'poll', arguments: '{"job":9007199254740993}' }, { content })
    store.ingest(page.batch())
    // Live: a text then the same object (2, reminded), two ids that differ in their last digit, the same id again (2, reminded).
    expect(marks(store.whatIf(whatIf(config)))).toEqual([
      [2, 'same', 'gentle', 'gentle'],
      [5, 'same', 'gentle', 'gentle'],
    ])
  })

  it('replays a cycle recording under the cycle option', () => {
    const store = createPanelStore()
    const page = recordingPage(RECOMMENDED_CONFIG)
    const agent = { name: 'pinger' }
    for (let i = 0; i < 4; i++) page.guard.observe({ agent, name: 'read', arguments: { f: i % 2 } })
    store.ingest(page.batch())
    expect(store.whatIf(whatIf({ cycles: { maxPeriod: 2, repeats: 2 } })).rows.map((r) => [r.seq, r.change, r.replayed?.level])).toEqual([[4, 'added', 'cycle']])
  })
})

describe('the result on the wire to the panel', () => {
  it('is cut at its cap with its true length, and checked', () => {
    const page = recordingPage({ ...RECOMMENDED_CONFIG, resultAware: true })
    page.guard.observe({ agent: {}, name: 'poll', arguments: {} }, { content: 'x'.repeat(LIMITS.result + 5) })
    const call = page.take().find((e) => e.type === 'call')!
    expect(call).toMatchObject({ result: 'x'.repeat(LIMITS.result), resultLength: LIMITS.result + 5 })
    expect(checkPanelEvent(call).ok).toBe(true)
    expect(checkPanelEvent({ ...call, resultLength: 3 }).ok).toBe(false)
    expect(checkPanelEvent({ ...call, result: 'x'.repeat(LIMITS.result + 1) }).ok).toBe(false)
    const short = fromEngineEvent({
      type: 'call',
      at: 1,
      agentId: 1,
      seq: 1,
      tool: 't',
      canonicalArguments: '{}',
      tracked: true,
      denied: false,
      isError: false,
      count: 1,
      nextThreshold: 3,
      result: 'ok',
    })
    expect(short).toMatchObject({ result: 'ok' })
    expect(Object.hasOwn(short, 'resultLength')).toBe(false)
  })

  it('a cut result replays as its head plus its length, so results that differ past the cut still differ', () => {
    const store = createPanelStore()
    const page = recordingPage({ ...RECOMMENDED_CONFIG, resultAware: true })
    const agent = { name: 'a' }
    const head = 'x'.repeat(LIMITS.result)
    for (const tail of ['1', '22', '333']) page.guard.observe({ agent, name: 'poll', arguments: {} }, { content: head + tail })
    store.ingest(page.batch())
    expect(store.whatIf(whatIf({ resultAware: true })).rows).toEqual([])
  })
})
