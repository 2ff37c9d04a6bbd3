// One valid example of every panel event and message, for the protocol tests to start from.
import { RECOMMENDED_CONFIG } from '../../../../engine/index.ts'
import { PROTOCOL_VERSION, type PanelEvent } from '../../../../extension/src/protocol/events.ts'
import { PAGE_SOURCE, type ContentReport, type PageToContent, type TabBatch } from '../../../../extension/src/protocol/messages.ts'

export const v = PROTOCOL_VERSION

type CallEvent = Extract<PanelEvent, { type: 'call' }>

/**
 * A `call` event: a tracked first call of `read_file` by `hook:1`, with `fields` over it. Its
 * `argsLength` is that of its `args` unless `fields` says otherwise (a text cut to the caps).
 */
export const callEvent = (fields: Partial<Omit<CallEvent, 'type'>> = {}): CallEvent => {
  const args = fields.args ?? '{"path":"a.txt"}'
  return {
    type: 'call',
    at: 1_700_000_000_000,
    agentId: 'hook:1',
    seq: 1,
    tool: 'read_file',
    args,
    argsLength: args.length,
    tracked: true,
    denied: false,
    isError: false,
    count: 1,
    nextThreshold: 3,
    ...fields,
  }
}

/** The `count`th call of a run of `tool`. */
export const call = (tool = 'read_file', count = 1): CallEvent => callEvent({ tool, seq: count, count })

export const EVENTS: Record<PanelEvent['type'], PanelEvent> = {
  agent: { type: 'agent', at: 1, agent: { id: 'hook:2', kind: 'hook', label: 'sub', parentId: 'hook:1' } },
  call: call(),
  reset: { type: 'reset', at: 1, agentId: 'hook:1', reason: 'prompt', previousCount: 4 },
  reminder: { type: 'reminder', at: 1, agentId: 'hook:1', seq: 3, tool: 'read_file', count: 3, level: 'gentle', text: 'stop repeating' },
  blocked: {
    type: 'blocked',
    at: 1,
    agentId: 'hook:1',
    tool: 'read_file',
    count: 4,
    feedback: 'Blocked by repeat-tool-guard: read_file was already called 4 times in a row with identical arguments (stopAfter: 4). Choose a different action.',
  },
  request: { type: 'request', at: 1, agentId: 'wire:1', url: 'https://api.example/v1/chat/completions', format: 'openai-chat', calls: 3, remindersInserted: 1, rewritten: true },
  config: { type: 'config', at: 1, config: RECOMMENDED_CONFIG },
  fault: { type: 'fault', at: 1, message: 'observe: boom' },
  snapshot: {
    type: 'snapshot',
    at: 1,
    agents: [
      { id: 'hook:1', kind: 'hook', label: 'main', tool: 'read_file', args: '{}', count: 2, nextThreshold: 3 },
      { id: 'wire:1', kind: 'wire', label: 'You are a helpful', format: 'anthropic', count: 0, nextThreshold: 3 },
    ],
    config: RECOMMENDED_CONFIG,
  },
  'page-load': { type: 'page-load', at: 1, url: 'http://127.0.0.1/agent.html' },
}

export const pageBatch = (events: readonly PanelEvent[] = Object.values(EVENTS)): PageToContent => ({
  source: PAGE_SOURCE,
  v,
  kind: 'events',
  events,
})

/** What a relay is given to send to the service worker: `events` seen on the page at `url`. */
export const contentReport = (events: readonly PanelEvent[], url = 'http://x/'): ContentReport => ({ v, kind: 'events', url, events })

export const tabBatch = (events: readonly PanelEvent[] = [call()], frameId = 0): TabBatch => ({ frameId, url: 'http://127.0.0.1/agent.html', origin: 'http://127.0.0.1', events })

/** A reminder event, as the engine reports one that reached the model. */
export const reminderEvent = EVENTS.reminder as Extract<PanelEvent, { type: 'reminder' }>

/** An agent event of a page API agent named `id`. */
export const agentEvent = (id: string): PanelEvent => ({ type: 'agent', at: 1, agent: { id, kind: 'hook', label: id } })
