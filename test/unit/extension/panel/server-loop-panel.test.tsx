// @vitest-environment happy-dom
// Agents whose loop runs on the server, in the panel: their reach (ui-stream, ag-ui), the reminders
// due inside the server's loop shown as "would remind" with their reason, and the calls the loop
// made past its first would-remind (the waste meter's server-loop count), measured again on import.
import { act, cleanup, render, screen, within } from '@testing-library/preact'
import { afterEach, describe, expect, it } from 'vitest'
import { RECOMMENDED_CONFIG } from '../../../../engine/index.ts'
import { Panel } from '../../../../extension/src/panel/components/panel.tsx'
import { createPanelStore, type PanelStore } from '../../../../extension/src/panel/store/panel-store.ts'
import type { PanelEvent, Withheld } from '../../../../extension/src/protocol/events.ts'
import { checkPanelEvent } from '../../../../extension/src/protocol/validate.ts'
import { callEvent } from '../support/samples.ts'

afterEach(cleanup)

const sink = { current: () => RECOMMENDED_CONFIG, apply: async () => {} }
const AGENT = 'wire:1'

function call(seq: number, count: number, tool = 'search'): PanelEvent {
  return callEvent({ at: seq, agentId: AGENT, seq, tool, args: '{"q":"x"}', count, nextThreshold: count < 3 ? 3 : count < 5 ? 5 : 8 })
}

function reminder(seq: number, withheld?: Withheld): PanelEvent {
  const held = withheld === undefined ? {} : { withheld }
  return {
    type: 'reminder',
    at: seq,
    agentId: AGENT,
    seq,
    tool: 'search',
    count: seq,
    level: seq < 5 ? 'gentle' : 'detailed',
    text: `You called search ${seq} times`,
    placement: 'after tool-output of call_3',
    ...held,
  }
}

/** A server's loop of `calls` identical calls, its reminders at 3 and 5 withheld as `withheld`. */
function loop(calls: number, withheld: Withheld | undefined, reach: 'ui-stream' | 'ag-ui' = 'ui-stream'): PanelEvent[] {
  const events: PanelEvent[] = [{ type: 'agent', at: 0, agent: { id: AGENT, kind: 'wire', label: 'chat abc', format: reach === 'ui-stream' ? 'ai-sdk-ui' : 'ag-ui', reach } }]
  for (let seq = 1; seq <= calls; seq++) {
    events.push(call(seq, seq))
    if (seq === 3 || seq === 5) events.push(reminder(seq, withheld))
  }
  return events
}

function storeOf(events: PanelEvent[]): PanelStore {
  for (const event of events) expect(checkPanelEvent(event).ok).toBe(true)
  const store = createPanelStore()
  store.ingest({ frameId: 0, url: 'http://localhost/', events })
  return store
}

const onlyAgent = (store: PanelStore) => store.agents()[0]!.record

describe("the waste meter of a server's loop", () => {
  it('counts the calls made after the first would-remind of the run, once each, and again on import', () => {
    const store = storeOf(loop(6, 'server-loop'))
    // Reminded at 3 inside the loop: calls 4, 5 and 6 went on regardless.
    expect(onlyAgent(store)).toMatchObject({ calls: 6, wasted: 6, loopSpent: 3 })
    const copy = createPanelStore()
    expect(copy.importSession(store.exportSession()).ok).toBe(true)
    expect(onlyAgent(copy).loopSpent).toBe(3)
    store.clear()
    expect(onlyAgent(store).loopSpent).toBe(0)
  })

  it('counts nothing for reminders the page could give, and starts over with a new run', () => {
    expect(onlyAgent(storeOf(loop(6, undefined))).loopSpent).toBe(0)
    expect(onlyAgent(storeOf(loop(6, 'observe'))).loopSpent).toBe(0)
    // The run of 4 ends (a different call), a new run of the same tool counts from nothing.
    const events = loop(4, 'server-loop')
    events.push(call(5, 1, 'open'), call(6, 1), call(7, 2))
    expect(onlyAgent(storeOf(events)).loopSpent).toBe(1)
  })
})

describe('the panel', () => {
  const rowsOf = (kind: string) => screen.getAllByTestId('timeline-row').filter((row) => row.getAttribute('data-kind') === kind)

  it('shows the reach, the would-remind rows with their reason, and the calls spent in the loop', () => {
    const store = createPanelStore()
    render(<Panel store={store} sink={sink} theme="light" />)
    act(() => store.ingest({ frameId: 0, url: 'http://localhost/', events: loop(6, 'server-loop') }))
    expect(screen.getByTestId('agent-reach').textContent).toBe('ui-stream')
    const reminders = rowsOf('reminder')
    expect(reminders).toHaveLength(2)
    for (const row of reminders) {
      const reason = within(row).getByTestId('reminder-withheld')
      expect(reason.textContent).toBe('would remind: the loop runs on the server')
      expect(reason.getAttribute('title')).toContain("inside the server's own tool loop")
      expect(row.textContent).not.toContain('would insert')
    }
    expect(screen.getByTestId('agent-loop-spent').textContent).toBe('3 in server loop')
  })

  it('names an AG-UI agent as such, and shows no loop count without a would-remind', () => {
    const store = createPanelStore()
    render(<Panel store={store} sink={sink} theme="light" />)
    act(() => store.ingest({ frameId: 0, url: 'http://localhost/', events: loop(4, 'observe', 'ag-ui') }))
    expect(screen.getByTestId('agent-reach').textContent).toBe('ag-ui')
    expect(screen.queryByTestId('agent-loop-spent')).toBeNull()
    expect(rowsOf('reminder')[0]!.textContent).toContain('would insert at')
  })
})
