// @vitest-environment happy-dom
// What-if with the round-2 options (docs/panel.md, "What-if"): near repeats, ignored argument keys
// and error runs replayed over a recorded session; repeated answers, which the rows do not hold,
// counted and said not to be replayed.
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/preact'
import { afterEach, describe, expect, it } from 'vitest'
import { RECOMMENDED_CONFIG, resolveConfig, type GuardConfigInput } from '../../../../engine/index.ts'
import { Panel } from '../../../../extension/src/panel/components/panel.tsx'
import { createPanelStore, type PanelStore } from '../../../../extension/src/panel/store/panel-store.ts'
import type { PanelEvent } from '../../../../extension/src/protocol/events.ts'
import { checkPanelEvent } from '../../../../extension/src/protocol/validate.ts'
import { memorySink } from './support/panel-mount.tsx'
import { recordingPage, type RecordingPage } from './support/recorded-session.ts'
import { callEvent } from '../support/samples.ts'

afterEach(cleanup)

function recorded(config: GuardConfigInput, drive: (page: RecordingPage, agent: object) => void): PanelStore {
  const store = createPanelStore()
  const page = recordingPage({ ...RECOMMENDED_CONFIG, ...config })
  drive(page, { name: 'searcher' })
  store.ingest(page.batch())
  return store
}

const whatIf = (store: PanelStore, config: GuardConfigInput) => store.whatIf(resolveConfig(config, RECOMMENDED_CONFIG))

function failing(page: RecordingPage, agent: object): void {
  for (const url of ['a', 'b', 'c']) page.guard.observe({ agent, name: 'fetch_page', arguments: { url } }, { isError: true, content: [{ type: 'text', text: `timeout on ${url}` }] })
}

describe('what-if with the round-2 options', () => {
  it('finds the near repeats a recording made without similar', () => {
    const store = recorded({}, (page, agent) => {
      for (const q of ['configure auth', 'configure the auth', 'configure auth now']) page.guard.observe({ agent, name: 'search', arguments: { q } })
    })
    const report = whatIf(store, { similar: { threshold: 0.6, minCalls: 3 } })
    expect(report.rows.map(({ seq, change, replayed }) => ({ seq, change, level: replayed?.level, count: replayed?.count }))).toEqual([{ seq: 3, change: 'added', level: 'similar', count: 3 }])
    expect(report.rows[0]!.replayed!.text).toMatch(/^Near-repeated tool calls detected:\n- tool: search\n- similar_calls: 3\n- last_arguments: \{"q":"configure auth now"\}\n/)
  })

  it('finds the repeats a volatile key hid, with ignoreArgumentKeys', () => {
    const store = recorded({}, (page, agent) => {
      for (let id = 1; id <= 3; id++) page.guard.observe({ agent, name: 'lookup', arguments: { q: 'x', requestId: `r-${id}` } })
    })
    expect(whatIf(store, {}).rows).toEqual([])
    const report = whatIf(store, { ignoreArgumentKeys: ['requestId'] })
    expect(report.rows.map(({ seq, change, replayed }) => [seq, change, replayed?.level])).toEqual([[3, 'added', 'gentle']])
  })

  it('replays error runs from the recorded error flags, the same where the page fired them', () => {
    const store = recorded({ errorRuns: { after: 2 } }, failing)
    const same = whatIf(store, { errorRuns: { after: 2 } })
    expect(same.rows.map(({ seq, change }) => [seq, change])).toEqual([[2, 'same']])
    expect(same.rows[0]!.recorded!.text).toContain('- last_error: timeout on b\n')
    const off = whatIf(store, {})
    expect(off.rows.map(({ seq, change }) => [seq, change])).toEqual([[2, 'removed']])
    const perTool = whatIf(store, { errorRuns: { after: 2 }, tools: [{ match: 'fetch_*', errorRuns: null }] })
    expect(perTool.totals.removed).toBe(1)
  })
})

/** A wire agent's session with one repeated-answer reminder, as zero-code mode records it. */
function answeredTwice(): PanelStore {
  const store = createPanelStore()
  const agentId = 'wire:1'
  const call = (seq: number): PanelEvent => callEvent({ at: seq, agentId, seq, tool: 'search', args: `{"q":"${seq}"}` })
  const events: PanelEvent[] = [
    { type: 'agent', at: 0, agent: { id: agentId, kind: 'wire', label: 'chat', format: 'openai-chat', reach: 'fetch' } },
    call(1),
    call(2),
    {
      type: 'reminder',
      at: 3,
      agentId,
      seq: 2,
      tool: 'search',
      count: 2,
      level: 'repeated-text',
      detector: 'repeated-text',
      text: 'You have given the same answer 2 times in a row. If the task is complete, say so once and stop; otherwise take a different step.',
    },
  ]
  for (const event of events) expect(checkPanelEvent(event).ok).toBe(true)
  store.ingest({ frameId: 0, url: 'http://x/', events })
  return store
}

describe('what-if and repeated answers', () => {
  it('leaves recorded repeated-answer reminders out of the comparison, and counts them', () => {
    const report = whatIf(answeredTwice(), {})
    expect(report.rows).toEqual([])
    expect(report.totals.recorded).toBe(0)
    expect(report.answersNotReplayed).toBe(1)
  })

  it('says in the What-if tab that they are not replayed', async () => {
    const store = answeredTwice()
    render(<Panel store={store} sink={memorySink()} theme="light" />)
    fireEvent.click(screen.getByTestId('tab-what-if'))
    const editor = screen.getByTestId('what-if-editor')
    await act(async () => void fireEvent.click(within(editor).getByTestId('config-apply')))
    await screen.findByTestId('what-if-result')
    expect(screen.getByTestId('what-if-answers').textContent).toBe(
      "Repeated answers (repeatedText, zero-code mode only) are not replayed: they count the model's answers, and the panel records calls, not answers. 1 repeated-answer reminder recorded is left out of the comparison.",
    )
  })

  it('says nothing of them in a session without any', async () => {
    const store = recorded({}, failing)
    render(<Panel store={store} sink={memorySink()} theme="light" />)
    fireEvent.click(screen.getByTestId('tab-what-if'))
    await act(async () => void fireEvent.click(within(screen.getByTestId('what-if-editor')).getByTestId('config-apply')))
    await screen.findByTestId('what-if-result')
    expect(screen.queryByTestId('what-if-answers')).toBeNull()
  })
})
