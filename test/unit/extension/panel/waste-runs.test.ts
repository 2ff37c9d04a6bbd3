// Which calls the waste meter counts as wasted for the runs that are no exact repeats (docs/panel.md,
// "Agents"): an error run's every error, after its reminder too, until a success, another tool's
// call or a prompt ends it; a repeated answer's reminder, whose run is of answers, no call.
import { describe, expect, it } from 'vitest'
import { createPanelStore } from '../../../../extension/src/panel/store/panel-store.ts'
import type { PanelEvent } from '../../../../extension/src/protocol/events.ts'
import { checkPanelEvent } from '../../../../extension/src/protocol/validate.ts'
import { callEvent } from '../support/samples.ts'

const AGENT = 'wire:1'

/** An agent's events, numbered as they come: each call a different call to the chain, but where `count` says. */
function session() {
  const events: PanelEvent[] = [{ type: 'agent', at: 0, agent: { id: AGENT, kind: 'wire', label: 'chat', format: 'anthropic', reach: 'fetch' } }]
  let seq = 0
  return {
    events,
    call(tool: string, { isError = false, denied = false, count = 1 } = {}) {
      seq += 1
      events.push(callEvent({ at: seq, agentId: AGENT, seq, tool, args: `{"n":${seq}}`, isError, denied, count }))
    },
    reminder(level: 'error-run' | 'repeated-text', tool: string, count: number) {
      events.push({ type: 'reminder', at: seq, agentId: AGENT, seq, tool, count, level, detector: level, wasteMs: 10, text: `${tool} × ${count}` })
    },
    prompt() {
      events.push({ type: 'reset', at: seq, agentId: AGENT, reason: 'prompt', previousCount: 1 })
    },
    /** The request that carried the calls before it, its conversation holding `calls` calls. */
    request(calls: number) {
      events.push({ type: 'request', at: seq, agentId: AGENT, url: 'https://llm.test/v1/messages', format: 'anthropic', calls, remindersInserted: 0, rewritten: false })
    },
    wasted() {
      for (const event of events) expect(checkPanelEvent(event).ok).toBe(true)
      const store = createPanelStore()
      store.ingest({ frameId: 0, url: 'http://x/', events })
      return store.agents()[0]!.record.wasted
    },
  }
}

describe('the waste meter, for runs of other calls', () => {
  it('counts an error run’s every error after its reminder, a denied call in between included in nothing, until a success ends it', () => {
    const s = session()
    for (let i = 0; i < 3; i++) s.call('fetch_url', { isError: true })
    s.reminder('error-run', 'fetch_url', 3)
    expect(s.wasted()).toBe(3)
    s.call('fetch_url', { isError: true })
    s.call('fetch_url', { denied: true })
    s.call('fetch_url', { isError: true })
    expect(s.wasted()).toBe(5)
    s.call('fetch_url')
    s.call('fetch_url', { isError: true })
    expect(s.wasted()).toBe(5)
  })

  it('ends an error run on another tool’s call, and on a prompt', () => {
    const other = session()
    for (let i = 0; i < 3; i++) other.call('fetch_url', { isError: true })
    other.reminder('error-run', 'fetch_url', 3)
    other.call('search', { isError: true })
    other.call('fetch_url', { isError: true })
    expect(other.wasted()).toBe(3)

    const prompted = session()
    for (let i = 0; i < 3; i++) prompted.call('fetch_url', { isError: true })
    prompted.reminder('error-run', 'fetch_url', 3)
    prompted.prompt()
    prompted.call('fetch_url', { isError: true })
    expect(prompted.wasted()).toBe(3)
  })

  it('ends an error run where a request’s conversation no longer extends the last one, taking back the calls it carried', () => {
    const s = session()
    for (let i = 0; i < 3; i++) s.call('fetch_url', { isError: true })
    s.reminder('error-run', 'fetch_url', 3)
    s.request(3)
    s.call('fetch_url', { isError: true })
    s.request(4)
    expect(s.wasted()).toBe(4)
    // A new conversation of two failing calls: the guard's runs start again with it.
    s.call('fetch_url', { isError: true })
    s.call('fetch_url', { isError: true })
    s.request(2)
    s.call('fetch_url', { isError: true })
    s.request(3)
    expect(s.wasted()).toBe(4)
  })

  it('keeps an error run that reached its reminder in the new conversation itself', () => {
    const s = session()
    for (let i = 0; i < 3; i++) s.call('fetch_url', { isError: true })
    s.reminder('error-run', 'fetch_url', 3)
    s.request(5)
    for (let i = 0; i < 3; i++) s.call('fetch_url', { isError: true })
    s.reminder('error-run', 'fetch_url', 3)
    s.request(3)
    s.call('fetch_url', { isError: true })
    s.request(4)
    expect(s.wasted()).toBe(7)
  })

  it('spends no call on a repeated answer, before it or after it', () => {
    const s = session()
    s.call('read_file')
    s.reminder('repeated-text', 'answer', 2)
    s.call('read_file', { count: 2 })
    expect(s.wasted()).toBe(0)
  })
})
