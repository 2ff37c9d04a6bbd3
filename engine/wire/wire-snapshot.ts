// Every wire agent remembered, with its chain as the engine holds it.
import type { RepeatToolGuard } from '../types.ts'
import type { WireAgentState } from './types.ts'
import type { Known } from './wire-agent.ts'

type WireChain = Pick<WireAgentState, 'tool' | 'canonicalArguments' | 'count' | 'nextThreshold'>

export function wireSnapshot(engine: RepeatToolGuard, known: Iterable<Known>): WireAgentState[] {
  const chains = new Map(engine.snapshot().map((chain) => [chain.id, chain]))
  // A wire agent whose history forked back to before its first call has no engine chain yet.
  const empty: WireChain = { count: 0, nextThreshold: engine.config.thresholds[0]! }
  const states: WireAgentState[] = []
  for (const agent of known) {
    if (agent.kind !== 'wire') continue
    const chain = agent.engineId === undefined ? undefined : chains.get(agent.engineId)
    const { tool, canonicalArguments: args, count, nextThreshold } = chain ?? empty
    states.push({ agentId: agent.id, format: agent.format, label: agent.label, ...(tool === undefined ? {} : { tool, canonicalArguments: args! }), count, nextThreshold })
  }
  return states
}
