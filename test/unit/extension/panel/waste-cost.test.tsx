// @vitest-environment happy-dom
// The waste meter in time and tokens (docs/panel.md, "Waste meter"): each agent's reminded runs by
// the `wasteMs` and `wasteTokens` their reminder and block events report, added once per run, per
// agent and for the tab, and kept by exported and imported sessions.
import { act, cleanup, render, screen, within } from '@testing-library/preact'
import { afterEach, describe, expect, it } from 'vitest'
import { RECOMMENDED_CONFIG } from '../../../../engine/index.ts'
import { Panel } from '../../../../extension/src/panel/components/panel.tsx'
import { formatDuration } from '../../../../extension/src/panel/components/format.ts'
import { createPanelStore, type PanelStore } from '../../../../extension/src/panel/store/panel-store.ts'
import type { AgentDescriptor, PanelEvent } from '../../../../extension/src/protocol/events.ts'
import { checkPanelEvent } from '../../../../extension/src/protocol/validate.ts'
import { recordingPage, repeat } from './support/recorded-session.ts'
import { callEvent } from '../support/samples.ts'

afterEach(cleanup)

const sink = { current: () => RECOMMENDED_CONFIG, apply: async () => {} }
const HOOK: AgentDescriptor = { id: 'hook:1', kind: 'hook', label: 'lead' }
const WIRE: AgentDescriptor = { id: 'wire:1', kind: 'wire', label: 'chat', format: 'openai-chat', reach: 'fetch' }

type Reminder = Extract<PanelEvent, { type: 'reminder' }>

/** Events as the page sends them for one agent, numbered as they come. */
function agentEvents(agent: AgentDescriptor) {
  const events: PanelEvent[] = [{ type: 'agent', at: 0, agent }]
  let seq = 0
  const at = () => 1_000 + seq
  return {
    events,
    call(tool: string, args: string, count: number) {
      seq += 1
      events.push(callEvent({ at: at(), agentId: agent.id, seq, tool, args, count, nextThreshold: null }))
      if (count === 1 && seq > 1) events.push({ type: 'reset', at: at(), agentId: agent.id, reason: 'different-call', previousCount: 1 })
    },
    reminder(fields: Pick<Reminder, 'level' | 'detector' | 'count' | 'tool'> & { wasteMs?: number; wasteTokens?: number }) {
      events.push({ type: 'reminder', at: at(), agentId: agent.id, seq, text: `reminder of ${fields.tool}`, ...fields })
    },
    blocked(tool: string, count: number, wasteMs: number) {
      events.push({ type: 'blocked', at: at(), agentId: agent.id, tool, count, feedback: 'Blocked', wasteMs })
    },
  }
}

function storeOf(...lists: PanelEvent[][]): PanelStore {
  const events = lists.flat()
  for (const event of events) expect(checkPanelEvent(event).ok).toBe(true)
  const store = createPanelStore()
  store.ingest({ frameId: 0, url: 'http://x/', events })
  return store
}

const record = (store: PanelStore, label: string) => store.agents().find((row) => row.record.descriptor.label === label)!.record

/**
 * A hook agent: an exact run reminded at 3 and 5, then its 6th call blocked (`stopAfter: 5`: a run
 * of 5 already), then a second run reminded at 3.
 */
function exactRuns() {
  const lead = agentEvents(HOOK)
  for (let n = 1; n <= 5; n++) {
    lead.call('grep', '{"q":"a"}', n)
    if (n === 3) lead.reminder({ level: 'gentle', detector: 'repeat', count: 3, tool: 'grep', wasteMs: 200 })
    if (n === 5) lead.reminder({ level: 'detailed', detector: 'repeat', count: 5, tool: 'grep', wasteMs: 500 })
  }
  lead.blocked('grep', 5, 650)
  for (let n = 1; n <= 3; n++) lead.call('read', '{"p":1}', n)
  lead.reminder({ level: 'gentle', detector: 'repeat', count: 3, tool: 'read', wasteMs: 100 })
  return lead.events
}

/** A wire agent: a near-repeat run firing at 3 and 6 (a chain reset on each call), then a new one at 3. */
function similarRuns() {
  const chat = agentEvents(WIRE)
  for (let n = 1; n <= 6; n++) {
    chat.call('search', `{"q":"auth ${n}"}`, 1)
    if (n === 3) chat.reminder({ level: 'similar', detector: 'similar', count: 3, tool: 'search', wasteMs: 300, wasteTokens: 400 })
    if (n === 6) chat.reminder({ level: 'similar', detector: 'similar', count: 6, tool: 'search', wasteMs: 900, wasteTokens: 1_000 })
  }
  chat.call('fetch', '{}', 1)
  for (let n = 1; n <= 3; n++) chat.call('search', `{"q":"db ${n}"}`, 1)
  chat.reminder({ level: 'similar', detector: 'similar', count: 3, tool: 'search', wasteMs: 200, wasteTokens: 50 })
  return chat.events
}

describe('the waste meter in time and tokens', () => {
  it('adds each run once: a run that fires again adds what it cost since, a new run all it cost', () => {
    const store = storeOf(exactRuns(), similarRuns())
    expect(store.wasteOf(record(store, 'lead'))).toEqual({ ms: 750 })
    expect(store.wasteOf(record(store, 'chat'))).toEqual({ ms: 1_100, tokens: 1_050 })
    expect(store.tabWaste()).toEqual({ calls: record(store, 'lead').wasted + record(store, 'chat').wasted, ms: 1_850, tokens: 1_050 })
  })

  it('counts a run that starts again after a user prompt as a new run', () => {
    const chat = agentEvents(WIRE)
    for (let n = 1; n <= 3; n++) chat.call('fetch', '{}', 1)
    chat.reminder({ level: 'error-run', detector: 'error-run', count: 3, tool: 'fetch', wasteMs: 300 })
    chat.events.push({ type: 'reset', at: 2_000, agentId: WIRE.id, reason: 'prompt', previousCount: 1 })
    chat.reminder({ level: 'error-run', detector: 'error-run', count: 3, tool: 'fetch', wasteMs: 400 })
    const store = storeOf(chat.events)
    expect(store.wasteOf(record(store, 'chat'))).toEqual({ ms: 700 })
  })

  it('shows time and tokens per agent and for the tab, tokens only where an event carried them', () => {
    const store = storeOf(exactRuns(), similarRuns())
    render(<Panel store={store} sink={sink} theme="light" />)
    const costs = screen.getAllByTestId('agent-waste-cost').map((badge) => badge.textContent)
    expect(costs).toEqual(['750 ms', '1.1 s · 1,050 tokens'])
    const calls = store.tabWaste().calls
    expect(calls).toBeGreaterThan(0)
    expect(screen.getByTestId('tab-waste').textContent).toBe(`Wasted: ${calls} calls · 1.8 s · 1,050 tokens`)
  })

  it('says on each reminder and block row what its run had cost by then, and nothing where the event carried no cost', () => {
    const lead = agentEvents(HOOK)
    for (let n = 1; n <= 3; n++) lead.call('grep', '{"q":"a"}', n)
    lead.reminder({ level: 'gentle', detector: 'repeat', count: 3, tool: 'grep', wasteMs: 200 })
    lead.blocked('grep', 3, 650)
    const chat = agentEvents(WIRE)
    for (let n = 1; n <= 3; n++) chat.call('search', `{"q":"auth ${n}"}`, 1)
    chat.reminder({ level: 'similar', detector: 'similar', count: 3, tool: 'search', wasteMs: 1_500, wasteTokens: 400 })
    render(<Panel store={storeOf(lead.events, chat.events)} sink={sink} theme="light" />)
    const costs = screen.getAllByTestId('run-cost').map((note) => note.textContent)
    expect(costs).toEqual(['run cost 200 ms', 'run cost 650 ms', 'run cost 1.5 s · 400 tokens'])
    cleanup()
    const plain = createPanelStore()
    const page = recordingPage()
    repeat(page, { name: 'lead' }, 'grep', { q: 'x' }, 5)
    plain.ingest(page.batch())
    render(<Panel store={plain} sink={sink} theme="light" />)
    expect(screen.getAllByTestId('reminder-badge')).toHaveLength(2)
    expect(screen.queryByTestId('run-cost')).toBeNull()
  })

  it('writes time in ms, seconds or minutes', () => {
    expect([999, 1_000, 59_999, 60_000, 125_400].map(formatDuration)).toEqual(['999 ms', '1.0 s', '59.9 s', '1 min 00 s', '2 min 05 s'])
  })

  it('shows no time or tokens when no event carries them, as with every detector off', () => {
    const store = createPanelStore()
    const page = recordingPage()
    repeat(page, { name: 'lead' }, 'grep', { q: 'x' }, 5)
    store.ingest(page.batch())
    render(<Panel store={store} sink={sink} theme="light" />)
    expect(within(screen.getByTestId('agent-list')).getByTestId('agent-wasted').textContent).toBe('5 wasted')
    expect(screen.queryByTestId('agent-waste-cost')).toBeNull()
    expect(screen.queryByTestId('tab-waste')).toBeNull()
    expect(store.tabWaste()).toEqual({ calls: 5 })
  })

  it('carries the engine’s wasteMs through from the page with a detector on', () => {
    const store = createPanelStore()
    const page = recordingPage({ ...RECOMMENDED_CONFIG, errorRuns: { after: 2 } })
    repeat(page, { name: 'lead' }, 'grep', { q: 'x' }, 3)
    store.ingest(page.batch())
    expect(store.wasteOf(store.agents()[0]!.record).ms).toBeGreaterThanOrEqual(0)
  })

  it.each(['with-arguments', 'sanitized'] as const)('is measured again from the rows of a session exported %s', (content) => {
    const store = storeOf(exactRuns(), similarRuns())
    const copy = createPanelStore()
    act(() => void expect(copy.importSession(store.exportSession(content)).ok).toBe(true))
    expect(copy.wasteOf(record(copy, 'lead'))).toEqual({ ms: 750 })
    expect(copy.wasteOf(record(copy, 'chat'))).toEqual({ ms: 1_100, tokens: 1_050 })
    expect(copy.tabWaste()).toEqual(store.tabWaste())
  })
})
