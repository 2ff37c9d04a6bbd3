// The adapter from engine events to panel events, for hook agents (`window.__REPEAT_TOOL_GUARD__`
// in the extension, the playground's own guard without it). Pure: no clock, no DOM, no I/O.
import type { AgentSnapshot, GuardConfig, GuardEvent } from '../../../engine/index.ts'
import { arrayPush } from '../../../engine/intrinsics.ts'
import { headOf } from '../../../engine/safe-reading.ts'
import { LIMITS, type AgentId, type AgentState, type PanelEvent } from './events.ts'
import { approxSize } from './size.ts'

const hookAgentId = (engineId: number): AgentId => `hook:${engineId}`

export function fromEngineEvent(event: GuardEvent): PanelEvent {
  const { at } = event
  switch (event.type) {
    case 'agent-seen': {
      const { id, label, parentId } = event.agent
      return {
        type: 'agent',
        at,
        agent: {
          id: hookAgentId(id),
          kind: 'hook',
          label: headOf(label, LIMITS.label),
          ...(parentId === undefined ? {} : { parentId: hookAgentId(parentId) }),
        },
      }
    }
    case 'call': {
      const result = event.result === undefined ? undefined : headOf(event.result, LIMITS.result)
      return {
        type: 'call',
        at,
        agentId: hookAgentId(event.agentId),
        seq: event.seq,
        tool: headOf(event.tool, LIMITS.toolName),
        args: headOf(event.canonicalArguments, LIMITS.args),
        argsLength: event.canonicalArguments.length,
        tracked: event.tracked,
        denied: event.denied,
        isError: event.isError,
        count: event.count,
        nextThreshold: event.nextThreshold,
        ...(result === undefined ? {} : { result }),
        ...(result !== undefined && result.length < event.result!.length ? { resultLength: event.result!.length } : {}),
      }
    }
    case 'chain-reset':
      return { type: 'reset', at, agentId: hookAgentId(event.agentId), reason: event.reason, previousCount: event.previousCount }
    case 'reminder': {
      const full = event.message.content[0].text
      const text = headOf(full, LIMITS.text)
      return {
        type: 'reminder',
        at,
        agentId: hookAgentId(event.agentId),
        seq: event.seq,
        tool: headOf(event.tool, LIMITS.toolName),
        count: event.count,
        level: event.level,
        ...(event.detector === undefined ? {} : { detector: event.detector }),
        ...(event.wasteMs === undefined ? {} : { wasteMs: event.wasteMs }),
        text,
        // A huge argumentsPreviewChars can make the reminder longer than the cap: the panel must
        // say it shows only part of what the model saw.
        ...(text.length < full.length ? { textLength: full.length } : {}),
      }
    }
    case 'blocked':
      return {
        type: 'blocked',
        at,
        agentId: hookAgentId(event.agentId),
        tool: headOf(event.tool, LIMITS.toolName),
        count: event.count,
        feedback: headOf(event.feedback, LIMITS.text),
        ...(event.wasteMs === undefined ? {} : { wasteMs: event.wasteMs }),
      }
    case 'config':
      return { type: 'config', at, config: event.config }
    case 'fault':
      return { type: 'fault', at, message: headOf(event.message, LIMITS.text) }
  }
}

/**
 * The whole hook state as one `snapshot` event. It must fit one batch: once the agents pass the
 * byte budget, later agents are listed without their arguments, and past twice the budget they
 * are left out (a page with that many live agents has a problem the panel cannot draw anyway).
 */
export function snapshotEvent(agents: readonly AgentSnapshot[], config: GuardConfig, at: number): PanelEvent {
  const budget = LIMITS.batchBytes / 4
  let bytes = 0
  const states: AgentState[] = []
  for (let i = 0; i < agents.length; i++) {
    const state = agentState(agents[i], bytes < budget)
    bytes += approxSize(state)
    if (bytes > 2 * budget) break
    arrayPush(states, state)
  }
  return { type: 'snapshot', at, agents: states, config }
}

/** A hook agent's state as a `snapshot` event lists it (without its arguments when `withArgs` is false). */
export function agentState(agent: AgentSnapshot, withArgs: boolean): AgentState {
  const { id, label, parentId, tool, canonicalArguments, count, nextThreshold } = agent
  return {
    id: hookAgentId(id),
    kind: 'hook',
    label: headOf(label, LIMITS.label),
    ...(parentId === undefined ? {} : { parentId: hookAgentId(parentId) }),
    ...(tool === undefined ? {} : { tool: headOf(tool, LIMITS.toolName) }),
    ...(withArgs && canonicalArguments !== undefined ? { args: headOf(canonicalArguments, LIMITS.args) } : {}),
    count,
    nextThreshold,
  }
}
