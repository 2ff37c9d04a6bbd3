// The agents a process's events describe, each with its current chain, so a panel that attaches
// after the events it missed were let go (recent-events.ts) still gets every live agent whole, from
// any source of panel events. Bounded: past `maxAgents` the agent heard from least recently goes.
import type { AgentState, PanelEvent } from '../../extension/src/protocol/events.ts'

export class LiveAgents {
  private readonly agents = new Map<string, AgentState>()

  constructor(private readonly maxAgents = 2_000) {}

  get size(): number {
    return this.agents.size
  }

  take(event: PanelEvent): void {
    switch (event.type) {
      case 'agent': {
        const known = this.agents.get(event.agent.id)
        this.put({ ...event.agent, ...(known?.tool === undefined ? {} : { tool: known.tool, args: known.args }), count: known?.count ?? 0, nextThreshold: known?.nextThreshold ?? null })
        return
      }
      case 'call': {
        const known = this.agents.get(event.agentId) ?? { id: event.agentId, kind: 'wire' as const, label: event.agentId, count: 0, nextThreshold: null }
        this.put({ ...known, tool: event.tool, args: event.args, count: event.count, nextThreshold: event.nextThreshold })
        return
      }
      case 'snapshot':
        for (const state of event.agents) this.put(state)
        return
      case 'page-load':
        this.agents.clear()
        return
      default:
    }
  }

  states(): AgentState[] {
    return [...this.agents.values()]
  }

  private put(state: AgentState): void {
    // Re-inserted, so the Map's order is the order agents were last heard from.
    this.agents.delete(state.id)
    this.agents.set(state.id, state)
    if (this.agents.size > this.maxAgents) this.agents.delete(this.agents.keys().next().value!)
  }
}
