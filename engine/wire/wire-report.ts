// What a wire agent's request reports: the engine's events for the items first seen in it,
// renumbered for the wire agent, with where each reminder went.
import type { WireEvent } from './types.ts'
import type { WireAgent } from './wire-agent.ts'
import type { Captured } from './wire-observer.ts'

/**
 * `placements`: where each item's reminders were inserted; or `serverLoop`, for calls a server's
 * loop made, whose reminders nothing could insert (docs/zero-code.md, "Agents whose loop runs on
 * the server").
 */
export function reportCaptured(agent: WireAgent, captured: readonly Captured[], placements: Map<number, string[]> | 'serverLoop'): WireEvent[] {
  const events: WireEvent[] = []
  for (const { event, item } of captured) {
    switch (event.type) {
      case 'call':
        events.push({ ...event, agentId: agent.id, seq: ++agent.seq })
        break
      case 'chain-reset':
        events.push({ ...event, agentId: agent.id })
        break
      case 'blocked':
        events.push({ ...event, agentId: agent.id, wouldBlock: true })
        break
      case 'reminder': {
        if (placements === 'serverLoop') {
          events.push({ ...event, agentId: agent.id, seq: agent.seq, placement: '', serverLoop: true })
          break
        }
        // Fired for a step first seen now, so inserted after it, unless its place is in a part
        // of the conversation sent before. The call that fired it is the last one numbered so far.
        const placement = placements.get(item)?.shift()
        if (placement !== undefined) events.push({ ...event, agentId: agent.id, seq: agent.seq, placement })
        break
      }
    }
  }
  return events
}

/** The agent's `agent` event, the first time it has something to report. */
export function announce(agent: WireAgent, at: number): WireEvent[] {
  if (agent.announced) return []
  agent.announced = true
  return [{ type: 'agent', at, agentId: agent.id, format: agent.format, label: agent.label }]
}
